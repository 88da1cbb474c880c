import { notificationMessages } from '@resort/shared';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { createAccount, signIn } from './helpers/accounts.ts';
import { seedTemplate } from './helpers/api.ts';
import { expectAccessible } from './helpers/axe.ts';
import { launchBrowser, startJourney } from './helpers/browser.ts';
import { query } from './helpers/db.ts';
import { pickOption } from './helpers/forms.ts';
import { receivedRequests } from './helpers/receiver.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The content field of a delivery made with the default body template. */
const contentOf = (body: string) => (JSON.parse(body) as { content: string }).content;

test('a planner adds a webhook, creates an alert that fires, and sees the notification arrive', async () => {
  const template = await seedTemplate('Fire resort');
  const planner = await createAccount('Planner', ['user']);
  const receiverUrl = inject('receiverUrl');
  const hookPath = `/hooks/${planner.tag}`;
  const journey = await startJourney(browser, inject('baseUrl'));
  const { page } = journey;

  // A webhook service, tested before it is added: the receiver gets the test.
  await signIn(page, planner, '/settings');
  const services = page.getByRole('region', { name: 'Notification services' });
  await pickOption(page, services.getByLabel('Type', { exact: true }), 'Webhook');
  await services.getByLabel('Label').fill('Trip desk hook');
  await services.getByLabel(/^Webhook URL/).fill(`${receiverUrl}${hookPath}`);
  await services.getByRole('button', { name: 'Send test' }).click();
  await services.getByRole('status').waitFor();
  await expect.poll(async () => (await receivedRequests(receiverUrl, hookPath)).length).toBe(1);
  const [testDelivery] = await receivedRequests(receiverUrl, hookPath);
  expect(testDelivery?.method).toBe('POST');
  expect(contentOf(testDelivery?.body ?? '{}')).toMatch(/test notification/i);
  await services.getByRole('button', { name: 'Add service' }).click();
  await services.getByText(notificationMessages.serviceCreated('WEBHOOK')).waitFor();
  await services.getByRole('listitem').filter({ hasText: 'Trip desk hook' }).waitFor();
  await expectAccessible(page, '03-settings-services');

  // An alert from the template whose price rule holds on every answer (prices are 180–599).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create Alert' }).click();
  await page.waitForURL('**/configure/alerts');
  const picker = page.getByRole('region', { name: 'Template' });
  await pickOption(page, picker.getByLabel('Group', { exact: true }), template.groupName);
  await pickOption(page, picker.getByLabel(/^Template/), template.name);
  const rules = page.getByRole('region', { name: 'Alert rules' });
  const priceRule = rules.getByTestId('alert-rule').filter({ hasText: 'Nightly price at most' });
  expect(await priceRule.getByRole('switch').isChecked()).toBe(true);
  await priceRule.getByLabel(/^Max price/).fill('1000');
  const delivery = page.getByRole('region', { name: 'Polling and notifications' });
  await delivery.getByLabel('Polling interval (seconds)').fill('5');
  // Every active service comes preselected: this alert notifies the webhook only.
  expect(await delivery.getByRole('checkbox', { name: 'Trip desk hook (Webhook)' }).isChecked()).toBe(true);
  await delivery.getByRole('checkbox', { name: 'Primary Email Alerts (Email)' }).uncheck();
  const details = page.getByRole('region', { name: 'Details' });
  await details.getByLabel('Title').fill('Fire drill');
  await details.getByLabel('Party name').fill('Okafor family');
  await expectAccessible(page, '03-alert-form');
  await page.getByRole('button', { name: 'Create alert' }).click();

  // The alert list shows it.
  await page.waitForURL((url) => url.pathname === '/alerts');
  await page.getByText('Alert "Fire drill" created.').waitFor();
  const row = page.getByTestId('alert-row').filter({ hasText: 'Alert: Fire drill' });
  await row.waitFor();
  expect(await row.textContent()).toContain('Okafor family');
  expect(await row.textContent()).toContain('Notifications: 1');
  await expectAccessible(page, '03-alerts-list');

  // The engine polls the simulator, the rule holds, and the webhook delivery reaches the receiver.
  await expect
    .poll(async () => (await receivedRequests(receiverUrl, hookPath)).length, {
      timeout: 60_000,
      interval: 500,
    })
    .toBeGreaterThan(1);
  const fired = (await receivedRequests(receiverUrl, hookPath))[1];
  expect(contentOf(fired?.body ?? '{}')).toContain('Alert "Fire drill" matched');
  const [alert] = await query<{ id: string; status: string; last_notified_at: Date | null }>(
    `SELECT r.id, r.status, r.last_notified_at FROM alerts r JOIN users u ON u.id = r.user_id
      WHERE u.email = $1 AND r.title = 'Fire drill'`,
    [planner.email],
  );
  expect(alert?.status).toBe('FIRING');
  expect(alert?.last_notified_at).not.toBeNull();
  // Delivered means the sender recorded the receiver's answer; then the dashboard shows it so.
  await expect
    .poll(
      async () =>
        (
          await query<{ status: string }>(
            `SELECT d.status FROM notification_deliveries d JOIN notifications n ON n.id = d.notification_id
              WHERE n.alert_id = $1 ORDER BY d.created_at LIMIT 1`,
            [alert?.id],
          )
        )[0]?.status,
      { timeout: 30_000, interval: 250 },
    )
    .toBe('SUCCESS');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await page.waitForURL('**/dashboard');
  const recent = page.locator('#recent-notifications');
  const notification = recent.getByRole('row').filter({ hasText: 'Fire drill · Okafor family' }).last();
  await notification.waitFor();
  const text = await notification.textContent();
  expect(text).toContain('Webhook');
  expect(text).toContain('Trip desk hook');
  expect(text).toContain('Alert "Fire drill" matched');
  expect(text).toContain('Delivered');
  await expect.poll(() => recent.getByRole('button', { name: 'Refresh' }).isEnabled()).toBe(true);
  await expectAccessible(page, '03-dashboard');

  const [stored] = await query<{ message: string; service_type: string; kind: string }>(
    `SELECT n.message, n.kind, s.type AS service_type FROM notifications n
       JOIN notification_deliveries d ON d.notification_id = n.id
       JOIN notification_services s ON s.id = d.notification_service_id
      WHERE n.alert_id = $1 ORDER BY n.created_at LIMIT 1`,
    [alert?.id],
  );
  expect(stored).toMatchObject({ kind: 'MATCH', service_type: 'WEBHOOK' });
  expect(stored?.message).toBe(contentOf(fired?.body ?? '{}'));

  expect(journey.errors).toEqual([]);
  await journey.close();
});
