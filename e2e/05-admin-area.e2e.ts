import { proxyMessages } from '@resort/shared';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { expectAccessible } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('an admin imports a proxy list and sees what was created, skipped and refused', async () => {
  const admin = await createAccount('Admin', ['user', 'admin']);
  const host = (n: number) => `proxy${n}-${admin.tag}.example.net`;
  // Imported disabled: the engine must not route other journeys' polls through proxies that do not exist.
  const list = [
    '# proxies for the e2e journey',
    `${host(1)}:3128`,
    `${host(2)}:8080:alice:s3cret`,
    `${host(3)}:1080:socks5`,
    `${host(1)}:3128`,
    'not a proxy line',
    `${host(4)}:99999`,
    host(5),
    '',
  ].join('\n');

  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await signIn(page, admin, '/admin/proxies');
  await page.getByRole('heading', { name: 'Import proxies' }).waitFor();
  await expectAccessible(page, '05-proxies');

  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Proxy list (.txt)').click();
  await (await chooser).setFiles({ name: 'proxies.txt', mimeType: 'text/plain', buffer: Buffer.from(list) });
  await page.getByRole('checkbox', { name: 'Activate by default' }).uncheck();
  await page.getByRole('button', { name: 'Import', exact: true }).click();

  const result = page.getByRole('region', { name: 'Import result' });
  await result.getByText('Created: 3').waitFor();
  await result.getByText('Skipped: 1').waitFor();
  await result.getByText('Errors: 3').waitFor();
  const errorRows = await result.getByTestId('import-error').all();
  expect(await Promise.all(errorRows.map((row) => row.getByRole('cell').allInnerTexts()))).toEqual([
    ['6', proxyMessages.hostInvalid, 'not a proxy line'],
    ['7', proxyMessages.portRange, `${host(4)}:99999`],
    ['8', proxyMessages.importLineFormat, host(5)],
  ]);

  // The inventory lists the new proxies, disabled.
  const rows = page.getByTestId('proxy-row').filter({ hasText: admin.tag });
  await expect.poll(() => rows.count()).toBe(3);
  expect(await rows.filter({ hasText: 'Active' }).count()).toBe(0);
  await expectAccessible(page, '05-proxies-imported');

  // A bulk action over every proxy asks first; cancelling changes nothing.
  await page.getByRole('button', { name: 'Disable all' }).click();
  const confirm = page.getByRole('dialog', { name: 'Disable all proxies' });
  await confirm.getByText(/^Disable all \d+ proxies\?/).waitFor();
  await expectAccessible(page, '05-proxies-bulk-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'hidden' });

  const stored = await query<{
    host: string;
    port: number;
    protocol: string;
    username: string | null;
    is_active: boolean;
  }>('SELECT host, port, protocol, username, is_active FROM proxies WHERE host LIKE $1 ORDER BY host', [
    `%-${admin.tag}.example.net`,
  ]);
  expect(stored).toEqual([
    { host: host(1), port: 3128, protocol: 'http', username: null, is_active: false },
    { host: host(2), port: 8080, protocol: 'http', username: 'alice', is_active: false },
    { host: host(3), port: 1080, protocol: 'socks5', username: null, is_active: false },
  ]);

  expect(journey.errors).toEqual([]);
  await journey.close();
});

test('a signed-in user without an admin role is sent from /admin to /unauthorized', async () => {
  const planner = await createAccount('Planner', ['user']);
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await signIn(page, planner);
  expect(await page.getByRole('navigation', { name: 'Main' }).getByText('Administration').count()).toBe(0);

  await page.goto('/admin');
  await page.waitForURL('**/unauthorized');
  await page.getByRole('heading', { name: 'Access Restricted' }).waitFor();
  await page.goto('/admin/proxies');
  await page.waitForURL('**/unauthorized');
  await expectAccessible(page, '05-unauthorized');

  // The server refuses too, whatever the interface does.
  const [user] = await query<{ roles: string[] }>('SELECT roles FROM users WHERE email = $1', [
    planner.email,
  ]);
  expect(user?.roles).toEqual(['user']);
  const token = await page.evaluate(() => {
    const raw = localStorage.getItem('resort-alerts.session');
    return raw ? (JSON.parse(raw) as { tokens: { accessToken: string } }).tokens.accessToken : null;
  });
  const res = await fetch(`${inject('baseUrl')}/api/proxies`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(403);

  expect(journey.errors).toEqual([]);
  await journey.close();
});
