import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { api, seedTemplate, tokenOf } from './helpers/api.ts';
import { expectAccessible } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';

/**
 * A resort site this journey controls: rooms as JSON, or (blocked) a bot wall's 403 HTML page.
 */
async function startSwitchableSite() {
  let blocked = false;
  const server = createServer((_req, res) => {
    if (blocked) {
      res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body><h1>Are you a robot?</h1></body></html>');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ rooms: [{ code: 'R1', available: false, price: 420 }] }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/availability`,
    block: (on: boolean) => {
      blocked = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let browser: Browser;
let site: Awaited<ReturnType<typeof startSwitchableSite>>;
beforeAll(async () => {
  browser = await launchBrowser();
  site = await startSwitchableSite();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

test("a planner's alert starts failing: the list and dashboard show it first with the cause, live, and recovery clears it", async () => {
  const blockedTemplate = await seedTemplate('Bot-walled resort', { targetUrl: site.url });
  const quietTemplate = await seedTemplate('Quiet resort');
  const planner = await createAccount('Planner', ['user']);
  const token = await tokenOf(planner);
  const overrides = { query: { checkIn: '2027-03-02', checkOut: '2027-03-06' } };
  const rule = { all: [{ path: 'rooms[*].available', operator: 'equals', value: true, label: 'Room open' }] };
  // The soon-blocked alert first: newest first, it would be second in the list until it fails.
  const blocked = await api<{ id: string }>(token, 'POST', '/registrations', {
    templateId: blockedTemplate.id,
    title: `Harbour suite ${planner.tag}`,
    overrides,
    watchConfig: rule,
    pollingIntervalSeconds: 5,
  });
  await api<{ id: string }>(token, 'POST', '/registrations', {
    templateId: quietTemplate.id,
    title: `Garden room ${planner.tag}`,
    overrides,
    watchConfig: rule,
    pollingIntervalSeconds: 5,
  });

  const journey = await startJourney(browser, inject('baseUrl'));
  const list = journey.page;
  await signIn(list, planner, '/alerts');
  const rows = list.getByTestId('alert-row');
  await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
  await expect.poll(() => rows.first().textContent()).toContain(`Garden room ${planner.tag}`);

  const dashboard = await journey.context.newPage();
  dashboard.on('pageerror', (err) => journey.errors.push(err.message));
  await dashboard.goto('/dashboard');
  await dashboard.getByRole('heading', { name: 'Dashboard' }).waitFor();
  expect(await dashboard.getByTestId('alert-health-panel').count()).toBe(0);

  // Every update below arrives without a navigation.
  let loads = 0;
  for (const page of [list, dashboard]) page.on('load', () => loads++);

  site.block(true);
  // Three refused polls (5 s apart) make it failing; the list puts it first with the cause in words.
  const firstHealth = rows.first().getByTestId('alert-health');
  await firstHealth.waitFor({ timeout: 60_000 });
  expect(await rows.first().textContent()).toContain(`Harbour suite ${planner.tag}`);
  expect(await firstHealth.textContent()).toContain(
    'Failing: refused by the site (blocked, login or rate limit)',
  );
  expect(await firstHealth.textContent()).toMatch(/Last successful check .*ago/);

  const panel = dashboard.getByTestId('alert-health-panel');
  await panel.waitFor({ timeout: 15_000 });
  const panelRow = panel.getByTestId('alert-health-row').first();
  expect(await panelRow.textContent()).toContain(`Harbour suite ${planner.tag}`);
  expect(await panelRow.textContent()).toContain('Failing: refused by the site');
  await expect
    .poll(() => dashboard.getByRole('heading', { name: '1 alert cannot see availability' }).count())
    .toBe(1);

  await expectAccessible(list, '14-alert-list-failing-axe');
  await expectAccessible(dashboard, '14-dashboard-failing-axe');

  // The site lets us in again: the next good answer clears it everywhere.
  site.block(false);
  await expect.poll(() => rows.getByTestId('alert-health').count(), { timeout: 60_000 }).toBe(0);
  await expect.poll(() => panel.count(), { timeout: 15_000 }).toBe(0);
  const insight = await api<{ alert: { activity: { health: string; lastSuccessAt: string | null } } }>(
    token,
    'GET',
    `/registrations/${blocked.id}/insight`,
  );
  expect(insight.alert.activity.health).toBe('healthy');
  expect(insight.alert.activity.lastSuccessAt).not.toBeNull();
  expect(loads).toBe(0);
  expect(journey.errors).toEqual([]);
});
