import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { api, dayFromToday, seedTemplate, tokenOf } from './helpers/api.ts';
import { expectAccessible } from './helpers/axe.ts';
import { holdAnswers, launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';
import { pickOption } from './helpers/forms.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Follows a link of the side navigation. */
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();

/** The value shown on a dashboard/home stat card. */
const card = (page: Page, label: string) => page.getByRole('group', { name: label });
async function expectCard(page: Page, label: string, value: string) {
  await card(page, label).getByText(value, { exact: true }).waitFor();
}

/** What the old sample data put on every screen: none of it may show for a real account. */
async function expectNoSampleData(page: Page) {
  const body = (await page.locator('body').textContent()) ?? '';
  for (const text of ['Sample data', 'Coming Soon', 'Sample', 'Grand Floridian getaway', 'Garcia family']) {
    expect(body, `"${text}" on ${page.url()}`).not.toContain(text);
  }
}

test('a new planner groups alerts in a watchlist, sees the figures follow, archives one and restores it', async () => {
  const template = await seedTemplate('Watchlist resort');
  const planner = await createAccount('Planner', ['user']);
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;

  // A new planner: empty states that lead to creating an alert, and no sample data anywhere.
  await signIn(page, planner, '/');
  await page.getByText('No alerts yet', { exact: true }).waitFor();
  await page.getByRole('main').getByRole('link', { name: 'Create alert' }).waitFor();
  await expectCard(page, 'Active alerts', '0');
  await expectNoSampleData(page);
  await nav(page, 'Dashboard');
  await expectCard(page, 'Watchlists tracked', '0');
  await expectCard(page, 'Archived alerts', '0');
  await page.getByText('No watchlists yet. Group the alerts of a trip to see them here.').waitFor();
  await expectNoSampleData(page);
  await nav(page, 'Watchlists');
  await page.getByText('No watchlists yet. Create one to group your alerts.').waitFor();
  await expectNoSampleData(page);
  await nav(page, 'Archived');
  await page.getByText('Nothing archived yet.').waitFor();
  await expectNoSampleData(page);

  // Two alerts (rules that never hold, so the engine leaves their status alone).
  const token = await tokenOf(planner);
  const seed = (title: string, partyName: string) =>
    api<{ id: string }>(token, 'POST', '/registrations', {
      templateId: template.id,
      title,
      partyName,
      overrides: { query: { checkIn: dayFromToday(40), checkOut: dayFromToday(44) } },
      watchConfig: { any: [{ path: 'rooms[*].price', operator: 'lt', value: 0, presetId: 'price' }] },
      pollingIntervalSeconds: 3600,
    });
  const lake = await seed('Summer at the lake', 'Okafor family');
  await seed('Fireworks night', 'Okafor family');

  // Create a watchlist and add both alerts.
  await nav(page, 'Watchlists');
  await page.getByRole('button', { name: 'Create watchlist' }).click();
  const form = page.getByRole('dialog', { name: 'Create watchlist' });
  await form.getByRole('button', { name: 'Save watchlist' }).click();
  await form.getByText('Name required').waitFor();
  await form.getByLabel('Name').fill('Okafor summer trip');
  await pickOption(page, form.getByLabel('Resort'), 'SIM');
  await pickOption(page, form.getByLabel('Quarter'), 'Q3');
  await form.getByRole('button', { name: 'Save watchlist' }).click();
  await page.getByText('Watchlist Okafor summer trip created.').waitFor();
  await form.waitFor({ state: 'hidden' });
  await page.getByText('SIM · Q3').waitFor();

  const picker = page.getByRole('combobox', { name: 'Add alerts' });
  await picker.click();
  await page.getByRole('option', { name: 'Summer at the lake · Okafor family' }).click();
  await page.getByRole('option', { name: 'Fireworks night · Okafor family' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByText('2 alerts added to Okafor summer trip.').waitFor();
  await page.getByRole('cell', { name: 'Summer at the lake', exact: true }).waitFor();
  await page.getByText('2 alerts', { exact: true }).waitFor();
  await expectAccessible(page, '11-watchlists');

  // The dashboard's spotlight and stat cards reflect them.
  await nav(page, 'Dashboard');
  await expectCard(page, 'Active alerts', '2');
  await expectCard(page, 'Watchlists tracked', '1');
  const spotlight = page.getByRole('region', { name: 'Watchlist spotlight' });
  await spotlight.getByText('Okafor summer trip').waitFor();
  await spotlight.getByText('0 available · 2 alerts').waitFor();
  await page.getByText('Enabled', { exact: true }).waitFor();
  await expectAccessible(page, '06-dashboard');

  // Book one, then archive it by hand from the watchlist.
  await nav(page, 'Alerts');
  await page.getByRole('button', { name: `More actions for ${lake.id}` }).click();
  await page.getByRole('menuitem', { name: 'Mark as booked' }).click();
  await page.getByText('Alert Summer at the lake marked as Booked.').waitFor();
  await nav(page, 'Dashboard');
  await expectCard(page, 'Active alerts', '1');
  await card(page, 'Archived alerts').getByText('1 ready for auto-archive').waitFor();

  // Opened again, the watchlist shows its alerts as they are now: while this visit's answer is held
  // back it shows as loading, never the last visit's rows, which the answer would reorder under the
  // pointer (Summer at the lake is Booked now and moves below Fireworks night).
  const answered = await holdAnswers(page, 'watchlists.alerts');
  await nav(page, 'Watchlists');
  await page.getByRole('button', { name: 'View alerts' }).click();
  await page.getByText('Loading alerts...').waitFor();
  expect(await page.getByRole('cell', { name: 'Summer at the lake', exact: true }).count()).toBe(0);
  await answered.release();
  await page.getByRole('row', { name: /Summer at the lake.*Booked/i }).waitFor();
  await page.getByRole('button', { name: 'Archive Summer at the lake' }).click();
  await page.getByText('Summer at the lake archived.').waitFor();
  await page.getByText('1 alert', { exact: true }).waitFor();

  // Restore it from Archived: back to Booked, in the active list again. Until this visit's answer
  // arrives the page shows as loading, never the last visit's (empty) page.
  const listed = await holdAnswers(page, 'archive.list');
  await nav(page, 'Archived');
  await page.getByText('Loading archived alerts…').waitFor();
  expect(await page.getByText('Nothing archived yet.').count()).toBe(0);
  await listed.release();
  await page.getByText('1 archived · 0 selected').waitFor();
  await page.getByRole('cell', { name: 'Booked', exact: true }).waitFor();
  await page.getByRole('checkbox', { name: 'Select Summer at the lake' }).check();
  await expectAccessible(page, '06-archived');
  await page.getByRole('button', { name: 'Restore' }).click();
  await page.getByText('1 alert restored.').waitFor();
  await page.getByText('Nothing archived yet.').waitFor();

  await nav(page, 'Home');
  await page.getByText('Okafor summer trip', { exact: true }).waitFor();
  await page.getByText('Summer at the lake · Okafor family', { exact: true }).waitFor();
  await expectCard(page, 'Archived alerts', '0');
  await expectAccessible(page, '06-home');

  // Notification preferences are kept on the server.
  await nav(page, 'Settings');
  const sms = page.getByRole('switch', { name: 'SMS notifications' });
  expect(await sms.isChecked()).toBe(false);
  await sms.click({ force: true });
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await page.getByText('Notification preferences saved.').waitFor();
  await page.reload();
  await expect.poll(() => page.getByRole('switch', { name: 'SMS notifications' }).isChecked()).toBe(true);
  const prefs = await query<{ notify_sms: boolean }>('SELECT notify_sms FROM users WHERE email = $1', [
    planner.email,
  ]);
  expect(prefs).toEqual([{ notify_sms: true }]);
  await page.getByText('Notification preferences', { exact: true }).scrollIntoViewIfNeeded();
  await expectAccessible(page, '06-settings');

  const stored = await query<{ status: string; archived_at: Date | null }>(
    'SELECT status, archived_at FROM alerts WHERE id = $1',
    [lake.id],
  );
  expect(stored).toEqual([{ status: 'BOOKED', archived_at: null }]);
  expect(journey.errors).toEqual([]);
  await journey.close();
});
