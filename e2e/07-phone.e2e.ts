import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { seedTemplate } from './helpers/api.ts';
import { expectAccessible, PHONE } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';
import { pickOption } from './helpers/forms.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** How far the page is wider than the phone: 0 when nothing sticks out sideways. */
const overflow = (page: Page) => page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);

test('on a 390 px phone a planner creates an alert from the menu, then edits it', async () => {
  const template = await seedTemplate('Phone resort');
  const planner = await createAccount('Phone', ['user']);
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await page.setViewportSize(PHONE);
  await signIn(page, planner);
  // The top bar fits: its last button ends inside the screen.
  const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
  expect((signOut?.x ?? 0) + (signOut?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(
    PHONE.width - 4,
  );

  // The navigation sits behind the menu button on a phone.
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create Alert' }).click();
  await page.waitForURL('**/configure/alerts');
  const picker = page.getByRole('region', { name: 'Template' });
  await pickOption(page, picker.getByLabel(/^Template/), template.name);
  await page.getByTestId('alert-rule').first().waitFor();
  const details = page.getByRole('region', { name: 'Details' });
  await details.getByLabel('Title').fill('Pocket trip');
  await details.getByLabel('Party name').fill('Nguyen family');
  expect(await overflow(page)).toBe(0);
  await expectAccessible(page, '07-phone-form');
  await page.getByRole('button', { name: 'Create alert' }).click();

  await page.waitForURL((url) => url.pathname === '/alerts');
  await page.getByText('Alert "Pocket trip" created.').waitFor();
  const row = page.getByTestId('alert-row').filter({ hasText: 'Pocket trip' });
  await row.waitFor();
  await expectAccessible(page, '07-phone-alerts');

  // Edit: the row's Edit opens the form filled in; a new title is saved.
  await row.getByRole('link', { name: 'Edit' }).click();
  await page.waitForURL((url) => url.pathname === '/configure/alerts' && url.searchParams.has('alert'));
  const title = page.getByRole('region', { name: 'Details' }).getByLabel('Title');
  await expect.poll(() => title.inputValue()).toBe('Pocket trip');
  await title.fill('Pocket trip, longer stay');
  expect(await overflow(page)).toBe(0);
  await page.getByRole('button', { name: 'Save alert' }).click();
  await page.waitForURL((url) => url.pathname === '/alerts');
  await page.getByText('Alert "Pocket trip, longer stay" updated.').waitFor();

  const stored = await query<{ title: string; party_name: string }>(
    'SELECT r.title, r.party_name FROM alerts r JOIN users u ON u.id = r.user_id WHERE u.email = $1',
    [planner.email],
  );
  expect(stored).toEqual([{ title: 'Pocket trip, longer stay', party_name: 'Nguyen family' }]);
  expect(journey.errors).toEqual([]);
  await journey.close();
});
