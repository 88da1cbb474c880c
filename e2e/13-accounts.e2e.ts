import { accountMessages } from '@resort/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { type Account, createAccount, newAccount, signIn } from './helpers/accounts.ts';
import { expectAccessible } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';
import { linkMailedTo } from './helpers/mail-sink.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens an account's dialog on the Users screen, found by the tag in its name. */
async function openAccount(page: Page, account: Account) {
  await page.getByLabel('Search accounts').fill(account.tag);
  await page.getByRole('button', { name: `Open ${account.name}` }).click();
  return page.getByRole('dialog', { name: account.name });
}

test('an admin invites a planner by e-mail, who registers through the link', async () => {
  const admin = await createAccount('Admin', ['user', 'admin']);
  const planner = newAccount('Invited');
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await signIn(page, admin, '/admin/users');
  await page.getByRole('heading', { name: 'Users', level: 2 }).waitFor();
  await page.getByRole('heading', { name: 'Invitations' }).waitFor();
  await expectAccessible(page, '13-users');

  await page.getByLabel(/^E-mail \(optional\)/).fill(planner.email);
  await page.getByRole('button', { name: 'Create invitation' }).click();
  await page.getByText(accountMessages.invitationCreated).waitFor();
  const shown = await page.getByLabel('Invitation link').inputValue();
  expect(shown).toMatch(/\/register#invitation=/);
  await page.getByRole('row').filter({ hasText: planner.email }).getByText('pending').waitFor();

  // The planner follows the e-mailed link: the same one the admin was shown.
  const link = await linkMailedTo(inject('mailUrl'), planner.email, '/register');
  expect(link).toBe(shown);
  const guest = await startJourney(browser, inject('baseUrl'));
  await guest.page.goto(link);
  await guest.page.getByText('You are invited as Planner.').waitFor();
  await expect.poll(() => guest.page.getByLabel(/^Email/).inputValue()).toBe(planner.email);
  await expectAccessible(guest.page, '13-register-invited');
  await guest.page.getByLabel(/^Name/).fill(planner.name);
  await guest.page.getByLabel(/^Password/).fill(planner.password);
  await guest.page.getByLabel(/^Confirm password/).fill(planner.password);
  await guest.page.getByRole('button', { name: 'Create account' }).click();
  await guest.page.waitForURL((url) => url.pathname === '/');
  await guest.page.getByRole('heading', { name: 'Home', level: 2 }).waitFor();
  const [stored] = await query<{ roles: string[] }>('SELECT roles FROM users WHERE lower(email) = $1', [
    planner.email,
  ]);
  expect(stored?.roles).toEqual(['user']);

  // The invitation is used up: the admin's list says so.
  await page.reload();
  await page.getByRole('row').filter({ hasText: planner.email }).getByText('used').waitFor();
  expect(journey.errors).toEqual([]);
  expect(guest.errors).toEqual([]);
  await guest.context.close();
  await journey.context.close();
});

test('an admin disables a planner, whose session is refused, and enables them again', async () => {
  const admin = await createAccount('Admin', ['user', 'admin']);
  const planner = await createAccount('Planner', ['user']);
  const plannerJourney = await startJourney(browser, inject('baseUrl'));
  await signIn(plannerJourney.page, planner, '/alerts');

  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await signIn(page, admin, '/admin/users');
  const dialog = await openAccount(page, planner);
  await expectAccessible(page, '13-user-dialog');
  await dialog.getByRole('button', { name: 'Disable account' }).click();
  await dialog.getByText(accountMessages.userDisabled(planner.name)).waitFor();
  await dialog.getByText('Disabled', { exact: true }).waitFor();

  // The planner's session ends: a reload lands on sign-in, and signing in is refused.
  await plannerJourney.page.reload();
  await plannerJourney.page.waitForURL(/\/login/);
  await plannerJourney.page.getByLabel(/^Email/).fill(planner.email);
  await plannerJourney.page.getByLabel(/^Password/).fill(planner.password);
  await plannerJourney.page.getByRole('button', { name: 'Sign in' }).click();
  await plannerJourney.page.getByRole('alert').getByText(accountMessages.accountDisabled).waitFor();

  await dialog.getByRole('button', { name: 'Enable account' }).click();
  await dialog.getByText(accountMessages.userEnabled(planner.name)).waitFor();
  await plannerJourney.page.getByRole('button', { name: 'Sign in' }).click();
  await plannerJourney.page.waitForURL((url) => url.pathname === '/alerts');

  // By keyboard: Escape closes the dialog and hands focus back to the button that opened it; Enter
  // opens it again from there.
  const opener = page.getByRole('button', { name: `Open ${planner.name}` });
  const openerHasFocus = () => opener.evaluate((element) => element === element.ownerDocument.activeElement);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(openerHasFocus).toBe(true);
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(openerHasFocus).toBe(true);
  expect(journey.errors).toEqual([]);
  await plannerJourney.context.close();
  await journey.context.close();
});

test('a planner resets a forgotten password from the e-mailed link', async () => {
  const planner = await createAccount('Forgetful', ['user']);
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL('**/forgot-password');
  await page.getByRole('button', { name: 'Send reset link' }).waitFor();
  await expectAccessible(page, '13-forgot-password');
  await page.getByLabel(/^Email/).fill(planner.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByText(accountMessages.resetLinkSent).waitFor();

  const link = await linkMailedTo(inject('mailUrl'), planner.email, '/reset-password');
  await page.goto(link);
  await page.getByRole('button', { name: 'Set new password' }).waitFor();
  await expectAccessible(page, '13-reset-password');
  const newPassword = `${planner.password}New1`;
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel(/^Confirm new password/).fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.getByText(accountMessages.passwordReset).waitFor();

  // The link works once; the new password signs in.
  await page.getByRole('link', { name: 'Sign in' }).click();
  await signIn(page, { ...planner, password: newPassword }, '/alerts');
  expect(page.url()).toMatch(/\/alerts$/);
  expect(journey.errors).toEqual([]);
  await journey.context.close();
});
