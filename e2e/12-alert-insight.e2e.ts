import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, onTestFailed, test } from 'vitest';
import { availability } from '../scripts/simulator.ts';
import { createAccount, signIn } from './helpers/accounts.ts';
import { api, seedTemplate, tokenOf } from './helpers/api.ts';
import { expectAccessible } from './helpers/axe.ts';
import { artifactsDir, launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';
import { tabTo } from './helpers/keyboard.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The e2e simulator's model (e2e/global-setup.ts): seed 7, default probability and room count. */
const model = { openProbability: 0.08, rooms: 4 };
const SEED = 7;

/**
 * A `ref` for which the simulator's rooms stay closed for the first `closedMs` from now and then open
 * for at least `openMs` (the simulator is a pure function of seed, request and time, so the moment
 * rooms open can be chosen ahead).
 */
function refOpeningLater(params: Record<string, string>, closedMs: number, openMs: number) {
  const now = Date.now();
  const open = (ref: number, at: number) =>
    availability(SEED, { ...params, ref: String(ref) }, at, model).anyAvailable;
  for (let ref = 1; ref < 200_000; ref++) {
    let closed = true;
    for (let t = 0; t <= closedMs && closed; t += 1000) closed = !open(ref, now + t);
    if (!closed) continue;
    for (let start = closedMs + 1000; start <= closedMs + 40_000; start += 1000) {
      let stays = true;
      for (let t = start; t <= start + openMs && stays; t += 1000) stays = open(ref, now + t);
      if (stays) return { ref: String(ref), opensAt: now + start };
    }
  }
  throw new Error('no simulator request opens in the window');
}

test('a planner watches rooms open: the dashboard, badge and timeline update live, with the alert’s dates', async () => {
  const template = await seedTemplate('Insight resort');
  const planner = await createAccount('Planner', ['user']);
  const token = await tokenOf(planner);
  const service = await api<{ id: string }>(token, 'POST', '/users/me/notification-services', {
    type: 'WEBHOOK',
    label: 'Insight hook',
    config: { url: `${inject('receiverUrl')}/hooks/insight-${planner.tag}`, method: 'POST' },
  });
  const dates = { checkIn: '2027-01-02', checkOut: '2027-01-06' };
  // What the engine will send: template defaults, then the alert's own values (all text in a URL).
  const { ref, opensAt } = refOpeningLater({ resort: 'SIM', adults: '2', ...dates }, 30_000, 25_000);
  const alert = await api<{ id: string }>(token, 'POST', '/registrations', {
    templateId: template.id,
    title: `Lagoon watch ${planner.tag}`,
    partyName: 'Okafor family',
    customQuery: { ref },
    overrides: { query: dates },
    watchConfig: {
      all: [{ path: 'rooms[*].available', operator: 'equals', value: true, label: 'Room open' }],
    },
    pollingIntervalSeconds: 5,
    notificationServiceIds: [service.id],
  });

  const journey = await startJourney(browser, inject('baseUrl'));
  const dashboard = journey.page;
  await signIn(dashboard, planner, '/dashboard');
  const recent = dashboard.locator('#recent-notifications');
  const notificationRow = recent.getByRole('row').filter({ hasText: `Lagoon watch ${planner.tag}` });

  const alertPage = await journey.context.newPage();
  alertPage.on('console', (msg) => {
    if (msg.type() === 'error') journey.errors.push(`${msg.text()} (${msg.location().url})`);
  });
  alertPage.on('pageerror', (err) => journey.errors.push(err.message));
  onTestFailed(async () => {
    if (!alertPage.isClosed())
      console.error(`alert page: ${await alertPage.locator('main').textContent()}`, journey.errors);
  });
  await alertPage.goto(`/alerts/${alert.id}`);
  // The dates shown are the alert's own, not the template's defaults.
  await alertPage.getByTestId('alert-page-dates').getByText('Jan 2 → Jan 6, 2027 · 4 nights').waitFor();
  const badge = alertPage.getByTestId('alert-page-status').locator('[data-status]');
  const timeline = alertPage.getByTestId('alert-timeline');
  await timeline.waitFor({ timeout: 30_000 });
  expect(await badge.getAttribute('data-status')).toBe('ACTIVE');
  expect(await notificationRow.count()).toBe(0);

  // Count navigations from here on: every update below must arrive without one.
  let loads = 0;
  for (const page of [dashboard, alertPage]) page.on('load', () => loads++);
  const pollsBefore = Number(await timeline.getAttribute('data-polls'));

  // The simulator opens rooms; the engine's next poll matches and notifies.
  const [fired] = await waitForRow<{ created_at: Date }>(
    `SELECT created_at FROM notifications WHERE alert_id = $1 ORDER BY created_at LIMIT 1`,
    [alert.id],
    opensAt - Date.now() + 60_000,
  );
  expect(fired!.created_at.getTime()).toBeGreaterThanOrEqual(opensAt - 1000);
  // Within 5 s of the event: the dashboard row, the badge and the timeline, with no reload or Refresh.
  await notificationRow.first().waitFor({ timeout: 5000 });
  await alertPage
    .locator('[data-testid="alert-page-status"] [data-status="FIRING"]')
    .waitFor({ timeout: 5000 });
  await expect
    .poll(async () => Number(await timeline.getAttribute('data-polls')), { timeout: 5000 })
    .toBeGreaterThan(pollsBefore);
  await timeline.getByText(/[1-9]\d* matched/).waitFor({ timeout: 5000 });
  // The message names, in words, the rooms that satisfied the rule.
  expect(await notificationRow.first().textContent()).toMatch(/\d+ rooms? available/);
  await alertPage.getByTestId('alert-notification').first().waitFor({ timeout: 5000 });
  expect(loads).toBe(0);

  // The explanation names the rule and what satisfied it; the poll log shows direct requests.
  const explanation = alertPage.getByTestId('rule-explanation');
  expect(await explanation.textContent()).toContain('Room open');
  expect(await alertPage.getByTestId('explanation-verdict').textContent()).toMatch(/^Matched/);
  expect(await alertPage.getByTestId('poll-log').textContent()).toContain('Direct');
  await expectAccessible(alertPage, '12-alert-page-axe');
  await expectAccessible(dashboard, '12-dashboard-axe');
  await alertPage.screenshot({ path: `${artifactsDir}/12-alert-page.png`, fullPage: true });
  await alertPage.setViewportSize({ width: 390, height: 844 });
  await alertPage.screenshot({ path: `${artifactsDir}/12-alert-page-phone.png`, fullPage: true });
  await journey.screenshot('12-dashboard');

  // The list shows the same dates and the row's life.
  await dashboard.goto('/alerts');
  const row = dashboard.getByTestId('alert-row').filter({ hasText: `Lagoon watch ${planner.tag}` });
  expect(await row.getByTestId('alert-dates').textContent()).toBe('Jan 2 → Jan 6, 2027 · 4 nights');
  expect(await row.getByTestId('alert-activity').textContent()).toMatch(/Checked .*ago/);
  await journey.screenshot('12-alert-list');
  await expectAccessible(dashboard, '12-alert-list-axe');
  // A phone: cards with title, dates, status and actions.
  await dashboard.setViewportSize({ width: 390, height: 844 });
  await dashboard.getByTestId('alert-cards').waitFor();
  await journey.screenshot('07-alert-list-phone');

  // Archived from the row menu with the keyboard alone: Tab to the row's menu, open it, arrow to
  // "Archive alert", Enter. The list says where it went, and Archived lists it.
  await dashboard.setViewportSize({ width: 1366, height: 900 });
  const more = dashboard.getByRole('button', { name: `More actions for ${alert.id}` });
  await more.waitFor();
  await tabTo(dashboard, more);
  await dashboard.keyboard.press('Enter');
  const archiveItem = dashboard.getByRole('menuitem', { name: 'Archive alert' });
  await archiveItem.waitFor();
  // The open menu has the focus (Mantine moves it in once the menu has opened).
  await expect
    .poll(() =>
      dashboard.evaluate(
        () =>
          (
            globalThis as unknown as { document: { activeElement: { closest(s: string): unknown } | null } }
          ).document.activeElement?.closest('[data-menu-dropdown]') != null,
      ),
    )
    .toBe(true);
  const focused = () => archiveItem.evaluate((el) => el === el.ownerDocument.activeElement);
  for (let presses = 0; presses < 10 && !(await focused()); presses++)
    await dashboard.keyboard.press('ArrowDown');
  expect(await focused()).toBe(true);
  await dashboard.keyboard.press('Enter');
  await dashboard
    .getByText(
      `Alert Lagoon watch ${planner.tag} archived: it is no longer polled. Restore it from Archived.`,
    )
    .waitFor();
  await dashboard.getByRole('link', { name: 'Archived' }).click();
  await dashboard
    .getByRole('cell', { name: `Lagoon watch ${planner.tag}` })
    .first()
    .waitFor();
  await expectAccessible(dashboard, '12-archived-axe');

  // Deleted permanently: the confirmation names what goes, and it is gone from the database.
  await dashboard.getByRole('checkbox', { name: `Select Lagoon watch ${planner.tag}` }).check();
  await dashboard.getByText('1 archived · 1 selected').waitFor();
  await dashboard.getByRole('button', { name: 'Delete permanently' }).click();
  const confirm = dashboard.getByRole('dialog', { name: 'Delete permanently' });
  await confirm
    .getByText(
      `Delete Lagoon watch ${planner.tag} permanently? Its notifications and poll history go too. This cannot be undone.`,
    )
    .waitFor();
  await expectAccessible(dashboard, '12-archived-delete-axe');
  await confirm.getByRole('button', { name: 'Delete permanently' }).click();
  await dashboard.getByText('1 alert deleted permanently.').waitFor();
  await dashboard.getByText('Nothing archived yet.').waitFor();
  expect(await query('SELECT id FROM alerts WHERE id = $1', [alert.id])).toEqual([]);

  expect(journey.errors).toEqual([]);
  await journey.close();
});

async function waitForRow<T extends Record<string, unknown>>(
  sql: string,
  params: unknown[],
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await query<T>(sql, params);
    if (rows.length > 0) return rows;
    if (Date.now() > deadline) throw new Error(`no row for ${sql}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
