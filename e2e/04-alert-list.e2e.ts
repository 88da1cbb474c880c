import { formatDateRangeForPeople } from '@resort/shared';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { api, dayFromToday, seedTemplate, tokenOf } from './helpers/api.ts';
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

test('a planner marks an alert booked, searches and filters the list, and removes an alert', async () => {
  const template = await seedTemplate('List resort');
  const planner = await createAccount('Planner', ['user']);
  const token = await tokenOf(planner);
  // Rules that never hold (no price is negative): the engine leaves these alerts' status alone.
  const seed = (title: string, partyName: string, tags: string[]) =>
    api<{ id: string }>(token, 'POST', '/registrations', {
      templateId: template.id,
      title,
      partyName,
      tags,
      overrides: { query: { checkIn: dayFromToday(40), checkOut: dayFromToday(44) } },
      watchConfig: { any: [{ path: 'rooms[*].price', operator: 'lt', value: 0, presetId: 'price' }] },
      pollingIntervalSeconds: 3600,
    });
  const summer = await seed('Summer at the lake', 'Garcia family', ['summer']);
  const winter = await seed('Winter lights', 'Lee family', ['winter', 'holidays']);
  const spring = await seed('Spring break', 'Garcia family', ['spring']);

  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await signIn(page, planner, '/alerts');
  const rows = page.getByTestId('alert-row');
  const row = (title: string) => rows.filter({ hasText: `Alert: ${title}` });
  const chips = page.getByRole('group', { name: 'Filter by status' });
  // The list's code and data may take a while on a busy machine; expect.poll waits only 1 s.
  await rows.first().waitFor();
  await expect.poll(() => rows.count()).toBe(3);
  expect(await row('Winter lights').textContent()).toContain(
    formatDateRangeForPeople({ start: dayFromToday(40), end: dayFromToday(44) }, 'en-US'),
  );
  await chips.getByText('All (3)').waitFor();
  await expectAccessible(page, '04-alerts-list');

  // Mark one booked from its row menu.
  await page.getByRole('button', { name: `More actions for ${winter.id}` }).click();
  await page.getByRole('menuitem', { name: 'Mark as booked' }).click();
  await page.getByText('Alert Winter lights marked as Booked.').waitFor();
  await row('Winter lights').getByText('Booked').waitFor();
  await chips.getByText('Booked (1)').waitFor();

  // Search: family names and tags, case-insensitive; then nothing.
  const search = page.getByRole('textbox', { name: 'Search alerts' });
  await search.fill('GARCIA');
  await expect.poll(() => rows.count()).toBe(2);
  expect(await row('Winter lights').count()).toBe(0);
  await search.fill('holidays');
  await expect.poll(() => rows.count()).toBe(1);
  await row('Winter lights').waitFor();
  await search.fill('no such alert anywhere');
  await page.getByText('No alerts match your search or filters. Try widening your filters.').waitFor();
  await search.fill('');
  await expect.poll(() => rows.count()).toBe(3);

  // Filter by status.
  await chips.getByText('Booked (1)').click();
  await expect.poll(() => rows.count()).toBe(1);
  await row('Winter lights').waitFor();
  await chips.getByText('All (3)').click();
  await expect.poll(() => rows.count()).toBe(3);

  // Remove one, through the confirmation.
  await page.getByRole('button', { name: `More actions for ${spring.id}` }).click();
  await page.getByRole('menuitem', { name: 'Remove alert' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove alert' });
  await dialog.getByText('Remove alert "Spring break"? This action cannot be undone.').waitFor();
  await expectAccessible(page, '04-remove-dialog');
  await dialog.getByRole('button', { name: 'Remove alert' }).click();
  await page.getByText(`Alert ${spring.id} removed.`).waitFor();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => rows.count()).toBe(2);
  await chips.getByText('All (2)').waitFor();
  await expectAccessible(page, '04-alerts-after-remove');

  // What the server stored.
  const stored = await query<{ id: string; status: string }>(
    'SELECT r.id, r.status FROM alerts r JOIN users u ON u.id = r.user_id WHERE u.email = $1 ORDER BY r.title',
    [planner.email],
  );
  expect(stored).toEqual([
    { id: summer.id, status: 'ACTIVE' },
    { id: winter.id, status: 'BOOKED' },
  ]);

  expect(journey.errors).toEqual([]);
  await journey.close();
});
