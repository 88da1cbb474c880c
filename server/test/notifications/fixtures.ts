import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { NotificationRecord, NotificationService } from '@resort/shared';
import type { TestUser } from '../factories.ts';
import { createUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type HttpReceiver, waitFor } from '../helpers/receivers.ts';

/** An alert of `user` on a fresh template, linked to the given services (rows written directly: setup only). */
export async function createAlertLinkedTo(
  t: TestApp,
  user: { id: string },
  serviceIds: string[],
  options: { title?: string; partyName?: string; templateName?: string } = {},
): Promise<{ alertId: string; templateId: string }> {
  const template = await t.db
    .insertInto('templates')
    .values({
      name: options.templateName ?? 'Grand Floridian',
      resort_code: 'GF',
      target_url: 'http://127.0.0.1:9/availability',
      method: 'GET',
      default_headers: '{}',
      default_query: '{}',
      editable_fields: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const alert = await t.db
    .insertInto('alerts')
    .values({
      user_id: user.id,
      template_id: template.id,
      title: options.title ?? 'Spring break',
      party_name: options.partyName ?? 'The Smiths',
      custom_headers: '{}',
      custom_query: '{}',
      overrides: '{}',
      watch_config: JSON.stringify({ all: [], any: [] }),
      polling_interval_seconds: 60,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (serviceIds.length) {
    await t.db
      .insertInto('alert_notification_services')
      .values(serviceIds.map((id) => ({ alert_id: alert.id, notification_service_id: id })))
      .execute();
  }
  return { alertId: alert.id, templateId: template.id };
}

export async function createService(t: TestApp, user: TestUser, body: unknown): Promise<NotificationService> {
  const res = await t.request({
    method: 'POST',
    url: '/api/users/me/notification-services',
    token: user.token,
    body,
  });
  if (res.statusCode !== 201) throw new Error(`create service failed: ${res.statusCode} ${res.body}`);
  return markVerified(t, res.json<{ data: NotificationService }>().data);
}

/**
 * These tests are about delivering: an e-mail or SMS channel is verified as its owner would verify
 * it by entering its code (test/accounts/channel-verification.int.test.ts covers the code itself).
 */
export async function markVerified(t: TestApp, service: NotificationService): Promise<NotificationService> {
  if (service.type !== 'EMAIL' && service.type !== 'SMS') return service;
  await t.db
    .updateTable('notification_services')
    .set({ verified_at: new Date(), verified_via: 'code' })
    .where('id', '=', service.id)
    .execute();
  return { ...service, verification: 'verified' };
}

export async function primaryEmailService(t: TestApp, user: TestUser): Promise<NotificationService> {
  const res = await t.request({ method: 'GET', url: '/api/users/me', token: user.token });
  const services = res.json<{ data: { notificationServices: NotificationService[] } }>().data
    .notificationServices;
  return markVerified(t, services.find((s) => s.type === 'EMAIL')!);
}

/**
 * Verifies a Standard Webhooks signature the way a receiver would, written out from the
 * specification rather than with the server's own code.
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = String(headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return String(headers['webhook-signature'])
    .split(' ')
    .some((sig) => sig === `v1,${expected}`);
}

export function deliveriesOf(t: TestApp, notificationId: string) {
  return t.db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('notification_id', '=', notificationId)
    .execute();
}

/** Waits until the notification has `count` deliveries and none is PENDING any more. */
export function settledDeliveries(t: TestApp, notificationId: string, count: number) {
  return waitFor(async () => {
    const rows = await deliveriesOf(t, notificationId);
    return rows.length === count && rows.every((d) => d.status !== 'PENDING') && rows;
  }, `${count} settled deliveries`);
}

export async function historyOf(t: TestApp, user: TestUser, query = ''): Promise<NotificationRecord[]> {
  const res = await t.request({
    method: 'GET',
    url: `/api/users/me/notification-history${query}`,
    token: user.token,
  });
  if (res.statusCode !== 200) throw new Error(`history failed: ${res.statusCode} ${res.body}`);
  return res.json<{ data: NotificationRecord[] }>().data;
}

/** A user with one webhook on its own path of a shared receiver, linked to a fresh alert. */
export async function webhookAlert(
  t: TestApp,
  hook: HttpReceiver,
  path: string,
  config: Record<string, unknown> = {},
) {
  const user = await createUser(t);
  const service = await createService(t, user, {
    type: 'WEBHOOK',
    label: path,
    config: { url: `${hook.url}${path}`, ...config },
  });
  const alert = await createAlertLinkedTo(t, user, [service.id]);
  return { user, service, ...alert };
}

/**
 * An app with a delivery worker on a 1-second retry schedule (1 s, then 1 s: capped) of 3 attempts,
 * so retries finish in seconds; loopback receivers allowed.
 */
export function startFastRetryApp(env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({
    boss: true,
    deliveries: true,
    env: {
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      DELIVERY_RETRY_BASE_SECONDS: '1',
      DELIVERY_RETRY_MAX_DELAY_SECONDS: '1',
      DELIVERY_MAX_ATTEMPTS: '3',
      ...env,
    },
  });
}
