import { alertMessages } from '@resort/shared';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount } from './helpers/accounts.ts';
import { seedTemplate } from './helpers/api.ts';
import { expectAccessible } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';
import { tabTo } from './helpers/keyboard.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Tabs from the Template select to Create alert: the whole form, with rule cards and options folded. */
const FORM_TAB_BUDGET = 20;

test('a planner signs in and creates an alert with the keyboard alone', async () => {
  const template = await seedTemplate('Keyboard resort');
  const planner = await createAccount('Keys', ['user']);
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;

  // Sign in: Tab to each field, type, Enter submits.
  await page.goto('/login');
  await tabTo(page, page.getByLabel(/^Email/));
  await page.keyboard.type(planner.email);
  await tabTo(page, page.getByLabel(/^Password/));
  await page.keyboard.type(planner.password);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/');

  // The navigation's Create Alert link, followed with Enter.
  await tabTo(
    page,
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create Alert' }),
  );
  await page.keyboard.press('Enter');
  await page.waitForURL('**/configure/alerts');

  // Enter on the closed Template select opens it and submits nothing; typing filters, Enter picks.
  const templateSelect = page.getByRole('combobox', { name: /^Template/ });
  await tabTo(page, templateSelect);
  await page.keyboard.press('Enter');
  await page.getByRole('listbox').waitFor();
  expect(await page.getByText(alertMessages.templateRequired).count()).toBe(0);
  await page.keyboard.type(template.name);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect.poll(() => templateSelect.inputValue()).toBe(template.name);
  await page.getByTestId('alert-rule').first().waitFor();

  // Title and party name, then Create: a short Tab path through the whole form.
  let tabs = await tabTo(page, page.getByRole('textbox', { name: 'Title' }));
  await page.keyboard.type('Keyboard getaway');
  tabs += await tabTo(page, page.getByRole('textbox', { name: 'Party name' }));
  await page.keyboard.type('Tab family');
  await expectAccessible(page, '06-keyboard-form');
  tabs += await tabTo(page, page.getByRole('button', { name: 'Create alert' }));
  console.log(`Tabs from the Template select to Create alert: ${tabs}`);
  expect(tabs).toBeLessThanOrEqual(FORM_TAB_BUDGET);
  await page.keyboard.press('Enter');

  await page.waitForURL((url) => url.pathname === '/alerts');
  await page.getByText('Alert "Keyboard getaway" created.').waitFor();
  const [stored] = await query<{ title: string; party_name: string; services: number }>(
    `SELECT r.title, r.party_name,
            (SELECT count(*)::int FROM alert_notification_services s WHERE s.alert_id = r.id) AS services
       FROM alerts r JOIN users u ON u.id = r.user_id WHERE u.email = $1`,
    [planner.email],
  );
  // The account's primary e-mail service was preselected.
  expect(stored).toEqual({ title: 'Keyboard getaway', party_name: 'Tab family', services: 1 });

  expect(journey.errors).toEqual([]);
  await journey.close();
});
