import type { Alert } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, createAlertOk, insertTemplate } from '../alerts/fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver, waitFor } from '../helpers/receivers.ts';
import { createService, deliveriesOf, settledDeliveries, startFastRetryApp } from './fixtures.ts';

/** Urgent alerts use each channel's high priority; a snoozed alert notifies nobody until the snooze ends. */
let t: TestApp;
let provider: HttpReceiver;

beforeAll(async () => {
  provider = await startHttpReceiver();
  t = await startFastRetryApp({ PUSHOVER_API_URL: provider.url });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

async function alertWith(user: TestUser, serviceIds: string[], extra: Record<string, unknown> = {}) {
  const templateId = await insertTemplate(t);
  return createAlertOk(t, user, templateId, { notificationServiceIds: serviceIds, ...extra });
}

function ntfyAt(user: TestUser, path: string, priority?: number) {
  return createService(t, user, {
    type: 'NTFY',
    label: null,
    config: { url: `${provider.url}${path}`, topic: 'openings', ...(priority ? { priority } : {}) },
  });
}

function notify(user: TestUser, alert: Alert, key: string) {
  return t.services.notifications.createNotification({
    userId: user.id,
    alertId: alert.id,
    eventKey: `${key}-${alert.id}`,
    kind: 'MATCH',
    message: `Alert "${alert.title}" matched: 2 rooms available at $689.`,
  });
}

describe('urgent alerts', () => {
  it('is saved with the alert and sent at ntfy priority 5 and Pushover emergency priority with retry and expire', async () => {
    const user = await createUser(t);
    const ntfy = await ntfyAt(user, '/ntfy-urgent', 2);
    const pushover = await createService(t, user, {
      type: 'PUSHOVER',
      label: null,
      config: { userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', appToken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi' },
    });
    const alert = await alertWith(user, [ntfy.id, pushover.id], { urgent: true });
    expect(alert.urgent).toBe(true);
    const { notificationId } = await notify(user, alert, 'urgent');
    await settledDeliveries(t, notificationId, 2);

    const ntfyBody = JSON.parse(provider.requests.find((r) => r.path === '/ntfy-urgent')!.body);
    expect(ntfyBody).toMatchObject({ priority: 5, title: 'Urgent: Spring break', tags: ['rotating_light'] });
    const form = Object.fromEntries(
      new URLSearchParams(provider.requests.find((r) => r.path === '/1/messages.json')!.body),
    );
    expect(form).toMatchObject({ priority: '2', retry: '60', expire: '3600', title: 'Urgent: Spring break' });
  });

  it('is off unless asked for: the channel keeps its own priority', async () => {
    const user = await createUser(t);
    const ntfy = await ntfyAt(user, '/ntfy-calm', 2);
    const alert = await alertWith(user, [ntfy.id]);
    expect(alert.urgent).toBe(false);
    const { notificationId } = await notify(user, alert, 'calm');
    await settledDeliveries(t, notificationId, 1);
    const body = JSON.parse(provider.requests.find((r) => r.path === '/ntfy-calm')!.body);
    expect(body).toMatchObject({ priority: 2, title: 'Spring break' });
  });
});

describe('snooze', () => {
  it("holds back an alert's notifications until the time given, without stopping its polling", async () => {
    const user = await createUser(t);
    const ntfy = await ntfyAt(user, '/ntfy-snooze');
    const alert = await alertWith(user, [ntfy.id]);
    const until = new Date(Date.now() + 3600_000).toISOString();
    const snoozed = await t.request({
      method: 'POST',
      url: `/api/registrations/${alert.id}/snooze`,
      token: user.token,
      body: { until },
    });
    expect(snoozed.statusCode, snoozed.body).toBe(200);
    expect(snoozed.json<Answer<Alert>>().data).toMatchObject({ snoozedUntil: until, status: alert.status });

    // Snoozed: the match is recorded (history, "last notified") but nothing is sent.
    const held = await notify(user, alert, 'snoozed');
    expect(await deliveriesOf(t, held.notificationId)).toEqual([]);

    // Someone else cannot snooze it, and a time in the past is refused.
    const stranger = await createUser(t);
    const foreign = await t.request({
      method: 'POST',
      url: `/api/registrations/${alert.id}/snooze`,
      token: stranger.token,
      body: { until },
    });
    expect(foreign.statusCode).toBe(404);
    const past = await t.request({
      method: 'POST',
      url: `/api/registrations/${alert.id}/snooze`,
      token: user.token,
      body: { until: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(past.statusCode).toBe(400);
    expect(past.body).toContain('Snooze until a time in the future.');

    // Woken (until: null): the next match is delivered.
    const woken = await t.request({
      method: 'POST',
      url: `/api/registrations/${alert.id}/snooze`,
      token: user.token,
      body: { until: null },
    });
    expect(woken.json<Answer<Alert>>().data.snoozedUntil).toBeNull();
    const next = await notify(user, alert, 'woken');
    const [row] = await settledDeliveries(t, next.notificationId, 1);
    expect(row).toMatchObject({ status: 'SUCCESS' });
    await waitFor(
      () => provider.requests.some((r) => r.path === '/ntfy-snooze'),
      'the delivery after the snooze',
    );
    expect(provider.requests.filter((r) => r.path === '/ntfy-snooze')).toHaveLength(1);
  });
});
