import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, onTestFailed, test } from 'vitest';
import { type Simulator, startSimulator } from '../scripts/simulator.ts';
import { createAccount, signIn } from './helpers/accounts.ts';
import { api, tokenOf } from './helpers/api.ts';
import { expectAccessible, PHONE } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';
import { tabTo } from './helpers/keyboard.ts';

/**
 * Flexible dates: on a 390 px phone, with the keyboard alone, a planner creates an alert that
 * watches any 4 or 5 nights in June arriving Thursday to Saturday, sees the stay count before saving,
 * and watches the alert page's availability calendar fill in and the one opened stay show, without
 * a reload. The upstream is a scripted simulator of this journey's own (open exactly these nights).
 */
let browser: Browser;
let sim: Simulator;
beforeAll(async () => {
  browser = await launchBrowser();
  sim = await startSimulator({ openNights: [] });
});
afterAll(async () => {
  await browser?.close();
  await sim?.close();
});

async function seedStayTemplate(tag: string) {
  const admin = await createAccount('Stays', ['user', 'admin']);
  const token = await tokenOf(admin);
  const date = (path: string, label: string) => ({ target: 'QUERY', path, label, fieldType: 'DATE' });
  return api<{ id: string; name: string }>(token, 'POST', '/templates', {
    name: `Lagoon stays ${tag}`,
    resortCode: 'LG',
    targetUrl: `${sim.url}/availability`,
    method: 'GET',
    pollingIntervalSeconds: 5,
    defaultQuery: { resort: 'LG', adults: 2 },
    editableFields: [date('checkIn', 'Check-in'), date('checkOut', 'Check-out')],
    stay: {
      checkIn: { target: 'QUERY', path: 'checkIn' },
      checkOut: { target: 'QUERY', path: 'checkOut' },
      bookingUrl: 'https://resort.example/book?arrive={checkIn}&depart={checkOut}',
    },
    responseWatchPresets: {
      notifyOn: 'firstMatch',
      any: [
        {
          id: 'open',
          label: 'Lagoon View open',
          condition: { path: 'rooms[*].available', operator: 'equals', value: true },
          defaultEnabled: true,
        },
      ],
    },
  });
}

test('a planner creates a flexible-dates alert with the keyboard at 390 px and watches its calendar fill in', async () => {
  const planner = await createAccount('Flexible', ['user']);
  const template = await seedStayTemplate(planner.tag);
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  onTestFailed(async () => console.error(await page.locator('main').textContent(), journey.errors));
  await page.setViewportSize(PHONE);
  await signIn(page, planner, '/configure/alerts');

  // The template, with the keyboard.
  const templateSelect = page.getByRole('combobox', { name: /^Template/ });
  await tabTo(page, templateSelect);
  await page.keyboard.press('Enter');
  await page.getByRole('listbox').waitFor();
  await page.keyboard.type(template.name);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect.poll(() => templateSelect.inputValue()).toBe(template.name);

  // Flexible dates: Space turns them on; the window replaces the check-in and check-out fields.
  await tabTo(page, page.getByRole('switch', { name: /Flexible dates/ }));
  await page.keyboard.press('Space');
  const window = page.getByRole('group', { name: 'Flexible dates' });
  await window.waitFor();
  expect(await page.getByRole('textbox', { name: 'Check-in', exact: true }).count()).toBe(0);
  for (const [label, value] of [
    [/First check-in/, '2027-06-01'],
    [/Last check-out/, '2027-06-30'],
  ] as const) {
    await tabTo(page, window.getByRole('textbox', { name: label }));
    await page.keyboard.press('Control+A');
    await page.keyboard.type(value);
  }
  for (const day of ['Thu', 'Fri', 'Sat']) {
    await tabTo(page, window.getByRole('checkbox', { name: day }));
    await page.keyboard.press('Space');
  }
  // The stay count, before saving: June 2027's Thu–Sat check-ins, 4 and 5 nights while they fit.
  await page.getByTestId('stay-count').getByText('This window means 23 stays (at most 120).').waitFor();
  await tabTo(page, page.getByRole('textbox', { name: 'Title' }));
  await page.keyboard.type('Any 4 or 5 nights in June');
  await expectAccessible(page, '15-stay-windows-form');
  await page.setViewportSize(PHONE);
  await tabTo(page, page.getByRole('button', { name: 'Create alert' }));
  await page.keyboard.press('Enter');

  // The list row sums the window up.
  await page.waitForURL((url) => url.pathname === '/alerts');
  const row = page.getByTestId('alert-row').filter({ hasText: 'Any 4 or 5 nights in June' });
  await row.getByText('Jun 1–30 · 4–5 nights · Thu–Sat').waitFor();
  const [stored] = await query<{ id: string; stay_window: unknown }>(
    'SELECT r.id, r.stay_window FROM alerts r JOIN users u ON u.id = r.user_id WHERE u.email = $1',
    [planner.email],
  );
  expect(stored!.stay_window).toEqual([
    {
      start: '2027-06-01',
      end: '2027-06-30',
      minNights: 4,
      maxNights: 5,
      arrivalWeekdays: ['thu', 'fri', 'sat'],
    },
  ]);

  // The alert page: the calendar fills in as the stays are checked, then the opened stay shows.
  await page.goto(`/alerts/${stored!.id}`);
  const calendar = page.getByRole('list', { name: 'Check-in days' });
  await calendar.waitFor();
  let loads = 0;
  page.on('load', () => loads++);
  await calendar.locator('li[data-state="closed"]').first().waitFor({ timeout: 30_000 });
  expect(await calendar.getByRole('listitem').count()).toBe(12);
  sim.openNights(['2027-06-10', '2027-06-11', '2027-06-12', '2027-06-13']);
  const opened = calendar.locator('li[data-state="open"]');
  await opened.waitFor({ timeout: 30_000 });
  expect(await opened.count()).toBe(1);
  expect(await opened.textContent()).toBe('Thu Jun 10Open4 nights');
  await page
    .getByTestId('stay-calendar-summary')
    .getByText('Open: Thu Jun 10 → Mon Jun 14, 4 nights.')
    .waitFor();
  await page
    .getByTestId('alert-notification')
    .first()
    .getByText(/Thu Jun 10 → Mon Jun 14, 4 nights/)
    .waitFor();
  expect(loads).toBe(0);
  await expectAccessible(page, '15-stay-windows-calendar');

  expect(journey.errors).toEqual([]);
  await journey.close();
});
