import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { api, tokenOf } from './helpers/api.ts';
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

test('a planner edits, disables and enables, rotates and deletes saved notification services in Settings', async () => {
  const planner = await createAccount('Services', ['user']);
  const hook = await api<{ id: string; signingSecret: string }>(
    await tokenOf(planner),
    'POST',
    '/users/me/notification-services',
    { type: 'WEBHOOK', label: 'Desk hook', config: { url: `${inject('receiverUrl')}/hooks/${planner.tag}` } },
  );
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;
  await signIn(page, planner, '/settings');
  const section = page.getByRole('region', { name: 'Notification services' });
  const item = (name: string) => section.getByRole('listitem').filter({ hasText: name });
  const manage = async (name: string, action: string) => {
    await section.getByRole('button', { name: `Manage ${name}` }).click();
    await page.getByRole('menuitem', { name: action }).click();
  };
  await item('Primary Email Alerts').waitFor();

  // Edit the e-mail service's label in a dialog.
  await manage('Primary Email Alerts', 'Edit');
  const edit = page.getByRole('dialog', { name: 'Edit Primary Email Alerts' });
  await edit.getByLabel('Label').fill('Inbox');
  await expectAccessible(page, '09-settings-edit-service');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await edit.waitFor({ state: 'hidden' });
  await section.getByText('Notification service Inbox updated.').waitFor();
  await item('Inbox').waitFor();

  // Disable, then enable again.
  await manage('Inbox', 'Disable');
  await section.getByText('Notification service Inbox disabled.').waitFor();
  await item('Inbox').getByText('Disabled').waitFor();
  await manage('Inbox', 'Enable');
  await section.getByText('Notification service Inbox enabled.').waitFor();
  await expect.poll(() => item('Inbox').getByText('Disabled').count()).toBe(0);

  // Rotate the webhook's signing secret, after a confirmation; the new one is shown once.
  await manage('Desk hook', 'Rotate signing secret');
  const rotate = page.getByRole('dialog', { name: 'Rotate signing secret' });
  await rotate.getByRole('button', { name: 'Rotate secret' }).click();
  const secret = await section.getByTestId('signing-secret').textContent();
  expect(secret).toMatch(/^whsec_/);
  expect(secret).not.toBe(hook.signingSecret);
  await expectAccessible(page, '09-settings-rotated');

  // Delete the webhook, after a confirmation.
  await manage('Desk hook', 'Delete');
  const remove = page.getByRole('dialog', { name: 'Delete notification service' });
  await remove.getByText(/^Delete notification service "Desk hook"\?/).waitFor();
  await remove.getByRole('button', { name: 'Delete service' }).click();
  await section.getByText('Notification service Desk hook deleted.').waitFor();
  await expect.poll(() => item('Desk hook').count()).toBe(0);

  const stored = await query<{ type: string; label: string; is_active: boolean }>(
    `SELECT s.type, s.label, s.is_active FROM notification_services s
       JOIN users u ON u.id = s.user_id WHERE u.email = $1 ORDER BY s.created_at`,
    [planner.email],
  );
  expect(stored).toEqual([{ type: 'EMAIL', label: 'Inbox', is_active: true }]);
  expect(journey.errors).toEqual([]);
  await journey.close();
});
