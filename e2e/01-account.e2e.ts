import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { newAccount } from './helpers/accounts.ts';
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

test('register, find the primary e-mail service, sign out, and come back to a protected page after signing in', async () => {
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  const account = newAccount('Ada');

  // Register: the form sends the new account home.
  await page.goto('/register');
  await page.getByRole('button', { name: 'Create account' }).waitFor();
  await expectAccessible(page, '01-register');
  await page.getByLabel(/^Name/).fill(account.name);
  await page.getByLabel(/^Email/).fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByLabel(/^Confirm password/).fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('heading', { name: 'Home', level: 2 }).waitFor();
  expect(await page.getByTestId('current-user').textContent()).toBe(account.name);
  await expectAccessible(page, '01-home');

  // Settings lists the e-mail service the server added at registration.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.waitForURL('**/settings');
  const services = page.getByRole('region', { name: 'Notification services' });
  const primary = services.getByRole('listitem').filter({ hasText: 'Primary Email Alerts' });
  await primary.waitFor();
  expect(await primary.textContent()).toContain(account.email);
  await expectAccessible(page, '01-settings');

  // Sign out: back at the sign-in page, and a protected page now asks to sign in first.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  await page.goto('/alerts');
  await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirect') === '/alerts');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await expectAccessible(page, '01-login');

  // Signing in returns to the page asked for.
  await page.getByLabel(/^Email/).fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/alerts');
  await page.getByRole('heading', { name: 'Alerts', level: 2 }).waitFor();
  await page.getByText('No alerts yet. Create one above.').waitFor();
  await expectAccessible(page, '01-alerts-empty');

  // What the server stored: the account, its primary e-mail service, and the signed-out session.
  const [user] = await query<{ id: string; name: string }>('SELECT id, name FROM users WHERE email = $1', [
    account.email,
  ]);
  expect(user?.name).toBe(account.name);
  const stored = await query<{
    type: string;
    label: string;
    is_active: boolean;
    config: { toEmail: string };
  }>('SELECT type, label, is_active, config FROM notification_services WHERE user_id = $1', [user?.id]);
  expect(stored).toEqual([
    { type: 'EMAIL', label: 'Primary Email Alerts', is_active: true, config: { toEmail: account.email } },
  ]);
  const sessions = await query<{ revoked: boolean }>(
    'SELECT revoked_at IS NOT NULL AS revoked FROM refresh_sessions WHERE user_id = $1 ORDER BY created_at',
    [user?.id],
  );
  expect(sessions.map((s) => s.revoked)).toEqual([true, false]);

  expect(journey.errors).toEqual([]);
  await journey.close();
});
