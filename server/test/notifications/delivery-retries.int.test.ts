import type { NotificationService } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver } from '../helpers/receivers.ts';
import {
  deliveriesOf,
  historyOf,
  settledDeliveries,
  startFastRetryApp,
  verifyStandardWebhook,
  webhookAlert as webhookAlertOf,
} from './fixtures.ts';

let t: TestApp;
let hook: HttpReceiver;

beforeAll(async () => {
  hook = await startHttpReceiver();
  t = await startFastRetryApp();
});
afterAll(async () => {
  await t.close();
  await hook.close();
});

const deliveries = (notificationId: string) => deliveriesOf(t, notificationId);
const settled = (notificationId: string, count: number) => settledDeliveries(t, notificationId, count);
const history = (user: TestUser, query = '') => historyOf(t, user, query);
const forPath = (path: string) => hook.requests.filter((r) => r.path === path);
const webhookAlert = (path: string, config: Record<string, unknown> = {}) =>
  webhookAlertOf(t, hook, path, config);

describe('delivery retries and failures', () => {
  it('retries a receiver that fails twice, with the same webhook-id, and ends SUCCESS after three attempts', async () => {
    const a = await webhookAlert('/flaky');
    let calls = 0;
    hook.setAnswer((req) => {
      if (req.path !== '/flaky') return { status: 200 };
      calls++;
      return calls <= 2 ? { status: 500, body: 'temporarily broken' } : { status: 200 };
    });
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      alertId: a.alertId,
      eventKey: `flaky-${a.alertId}`,
      kind: 'MATCH',
      message: 'Try me',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 3, error: null });
    const hits = forPath('/flaky');
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.headers['webhook-id']))).toEqual(new Set([row!.id]));
    expect(hits.every((h) => verifyStandardWebhook(a.service.signingSecret!, h.headers, h.body))).toBe(true);
    // Backoff: each retry came at least the 1-second base after the previous attempt.
    expect(hits[1]!.receivedAt - hits[0]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(hits[2]!.receivedAt - hits[1]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect((await history(a.user))[0]).toMatchObject({ status: 'SUCCESS', attempts: 3, error: null });
  });

  it('ends FAILURE with the last error after the last attempt, visible in the history', async () => {
    const a = await webhookAlert('/down');
    hook.setAnswer((req) =>
      req.path === '/down' ? { status: 503, body: 'down for maintenance' } : { status: 200 },
    );
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      alertId: a.alertId,
      eventKey: `down-${a.alertId}`,
      kind: 'MATCH',
      message: 'Will not arrive',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({
      status: 'FAILURE',
      attempts: 3,
      error: 'Webhook receiver answered 503: down for maintenance',
      dispatched_at: null,
    });
    expect(forPath('/down')).toHaveLength(3);
    const [record] = await history(a.user);
    expect(record).toMatchObject({
      status: 'FAILURE',
      error: 'Webhook receiver answered 503: down for maintenance',
      message: 'Will not arrive',
      notificationService: { type: 'WEBHOOK', label: '/down' },
    });
  });

  it('waits at least as long as a 429 Retry-After asks', async () => {
    const a = await webhookAlert('/busy');
    let calls = 0;
    hook.setAnswer((req) => {
      if (req.path !== '/busy') return { status: 200 };
      calls++;
      return calls === 1
        ? { status: 429, headers: { 'retry-after': '3' }, body: 'slow down' }
        : { status: 200 };
    });
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      alertId: a.alertId,
      eventKey: `busy-${a.alertId}`,
      kind: 'MATCH',
      message: 'Patience',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    const hits = forPath('/busy');
    // The schedule alone would have retried after about 1 s; the receiver asked for 3.
    expect(hits[1]!.receivedAt - hits[0]!.receivedAt).toBeGreaterThanOrEqual(2950);
  });

  it('deactivates a service whose receiver answers 410 Gone, without retrying', async () => {
    const a = await webhookAlert('/gone');
    hook.setAnswer((req) => (req.path === '/gone' ? { status: 410, body: 'unsubscribed' } : { status: 200 }));
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      alertId: a.alertId,
      eventKey: `gone-${a.alertId}`,
      kind: 'MATCH',
      message: 'Anyone there?',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({
      status: 'FAILURE',
      attempts: 1,
      error: 'Webhook receiver answered 410: unsubscribed',
    });
    const me = await t.request({ method: 'GET', url: '/api/users/me', token: a.user.token });
    const service = me
      .json<{ data: { notificationServices: NotificationService[] } }>()
      .data.notificationServices.find((s) => s.id === a.service.id);
    expect(service).toMatchObject({ isActive: false });
    expect(service?.deactivatedReason).toMatch(/410 Gone/);
    // A later notification of the alert skips the deactivated service.
    const next = await t.services.notifications.createNotification({
      userId: a.user.id,
      alertId: a.alertId,
      eventKey: `gone-2-${a.alertId}`,
      kind: 'MATCH',
      message: 'Again',
    });
    expect(await deliveries(next.notificationId)).toHaveLength(0);
    expect(forPath('/gone')).toHaveLength(1);
  });

  it('fails at once, without retrying, a delivery to an address the guard refuses', async () => {
    const a = await webhookAlert('/moved');
    // The stored URL now points at a private address (saved before the rules, or DNS changed).
    await t.db
      .updateTable('notification_services')
      .set({ config: JSON.stringify({ ...a.service.config, url: 'http://10.20.30.40/hook' }) })
      .where('id', '=', a.service.id)
      .execute();
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      alertId: a.alertId,
      eventKey: `moved-${a.alertId}`,
      kind: 'MATCH',
      message: 'Nope',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({ status: 'FAILURE', attempts: 1 });
    expect(row!.error).toMatch(/10\.20\.30\.40/);
  });
});
