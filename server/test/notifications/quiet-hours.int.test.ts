import type { QuietHours } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createManualClock } from '../helpers/clock.ts';
import { type HttpReceiver, startHttpReceiver, waitFor } from '../helpers/receivers.ts';
import { createAlertLinkedTo, createService, deliveriesOf, settledDeliveries } from './fixtures.ts';

/**
 * Quiet hours on a test clock: the app's clock is set two seconds before a window's end (in a time
 * zone half an hour off UTC), so what is held inside the window comes due in real seconds.
 */
const TIME_ZONE = 'Asia/Kolkata';
const clock = createManualClock();
let a: TestApp;
let provider: HttpReceiver;
const env = { OUTBOUND_ALLOWLIST: '127.0.0.1', DELIVERY_RETRY_BASE_SECONDS: '1' };

/** HH:MM of `at` in TIME_ZONE. */
function localTime(at: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

/** The clock moved to `seconds` before the next whole minute; answers that minute (the window's end). */
function nearMinuteEnd(seconds: number): Date {
  const now = clock.now().getTime();
  const end = new Date(Math.ceil((now + 60_000) / 60_000) * 60_000);
  clock.advance(end.getTime() - seconds * 1000 - now);
  return end;
}

beforeAll(async () => {
  provider = await startHttpReceiver();
  a = await startTestApp({ boss: true, deliveries: true, clock, env });
});
afterAll(async () => {
  await a.close();
  await provider.close();
});

async function setQuietHours(user: TestUser, body: Partial<QuietHours> | null) {
  const res = await a.request({
    method: 'PUT',
    url: '/api/users/me/quiet-hours',
    token: user.token,
    body: body ?? { enabled: false },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: QuietHours }>().data;
}

/** Quiet hours from an hour before `end` until `end`, in TIME_ZONE. */
function quietUntil(user: TestUser, end: Date, serviceIds: string[] | null = null) {
  return setQuietHours(user, {
    enabled: true,
    start: localTime(new Date(end.getTime() - 3600_000)),
    end: localTime(end),
    timeZone: TIME_ZONE,
    serviceIds,
  });
}

async function ntfyUser(path: string) {
  const user = await createUser(a);
  const service = await createService(a, user, {
    type: 'NTFY',
    label: null,
    config: { url: `${provider.url}${path}`, topic: 'openings', priority: 3 },
  });
  return { user, service };
}

function notify(app: TestApp, user: TestUser, alertId: string, key: string, message: string) {
  return app.services.notifications.createNotification({
    userId: user.id,
    alertId,
    eventKey: `${key}-${alertId}`,
    kind: 'MATCH',
    message,
  });
}

describe('quiet hours', () => {
  it('validates the window and the time zone with the shared messages', async () => {
    const user = await createUser(a);
    const bad = await a.request({
      method: 'PUT',
      url: '/api/users/me/quiet-hours',
      token: user.token,
      body: { enabled: true, start: '25:00', end: '07:00', timeZone: 'Mars/Olympus', serviceIds: null },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Start must be a time of day (HH:MM)');
    expect(bad.body).toContain('Time zone must be an IANA name such as Europe/Paris');
    const off = await a.request({ method: 'GET', url: '/api/users/me/quiet-hours', token: user.token });
    expect(off.json<{ data: QuietHours }>().data).toEqual({
      enabled: false,
      start: '22:00',
      end: '07:00',
      timeZone: 'UTC',
      serviceIds: null,
    });
  });

  it('holds matches inside the window and sends them as one digest at its end; urgent ones go at once with high priority', async () => {
    const { user, service } = await ntfyUser('/quiet');
    const calm = await createAlertLinkedTo(a, user, [service.id], { title: 'Spring break' });
    const urgent = await createAlertLinkedTo(a, user, [service.id], { title: 'Fireworks' });
    await a.db.updateTable('alerts').set({ urgent: true }).where('id', '=', urgent.alertId).execute();
    const end = nearMinuteEnd(3);
    const saved = await quietUntil(user, end);
    expect(saved.enabled).toBe(true);

    const first = await notify(a, user, calm.alertId, 'q1', 'Spring break: 2 rooms at $689.');
    const second = await notify(a, user, calm.alertId, 'q2', 'Spring break: 1 room at $720.');
    const loud = await notify(a, user, urgent.alertId, 'q3', 'Fireworks: 4 seats.');

    // The urgent one arrives at once, at priority 5, while the others are held.
    const [urgentRow] = await settledDeliveries(a, loud.notificationId, 1);
    expect(urgentRow).toMatchObject({ status: 'SUCCESS' });
    expect(provider.requests.filter((r) => r.path === '/quiet')).toHaveLength(1);
    expect(JSON.parse(provider.requests[0]!.body)).toMatchObject({ priority: 5, title: 'Urgent: Fireworks' });
    const held = [
      ...(await deliveriesOf(a, first.notificationId)),
      ...(await deliveriesOf(a, second.notificationId)),
    ];
    expect(held.map((d) => d.status)).toEqual(['PENDING', 'PENDING']);

    // At the window's end: one digest with both messages, and both deliveries settled.
    const requests = await waitFor(
      () =>
        provider.requests.filter((r) => r.path === '/quiet').length >= 2 &&
        provider.requests.filter((r) => r.path === '/quiet'),
      'the digest',
    );
    await settledDeliveries(a, first.notificationId, 1);
    await settledDeliveries(a, second.notificationId, 1);
    // Held until the window's end: seconds after the urgent one, not at once.
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(1500);
    const digest = JSON.parse(requests[1]!.body);
    expect(digest.title).toBe('2 openings during quiet hours');
    expect(digest.message).toContain('Spring break: 2 rooms at $689.');
    expect(digest.message).toContain('Spring break: 1 room at $720.');
    expect(digest.priority).toBe(3);
    for (const d of [
      ...(await deliveriesOf(a, first.notificationId)),
      ...(await deliveriesOf(a, second.notificationId)),
    ])
      expect(d.status).toBe('SUCCESS');
    await new Promise((r) => setTimeout(r, 500));
    expect(provider.requests.filter((r) => r.path === '/quiet')).toHaveLength(2);
  });

  it('covers only the channels chosen, and nothing outside the window', async () => {
    const { user, service } = await ntfyUser('/quiet-other');
    const alert = await createAlertLinkedTo(a, user, [service.id]);
    const end = nearMinuteEnd(30);
    // Another channel only: this one is not quiet.
    await quietUntil(user, end, [
      (
        await createService(a, user, {
          type: 'TEAMS',
          label: null,
          config: { url: `${provider.url}/teams` },
        })
      ).id,
    ]);
    const n = await notify(a, user, alert.alertId, 'other', 'Not held');
    await settledDeliveries(a, n.notificationId, 1);
    expect(provider.requests.some((r) => r.path === '/quiet-other')).toBe(true);
  });

  it('loses nothing when the worker restarts inside the window', async () => {
    const { user, service } = await ntfyUser('/quiet-restart');
    const alert = await createAlertLinkedTo(a, user, [service.id]);
    const end = nearMinuteEnd(4);
    await quietUntil(user, end);
    const n = await notify(a, user, alert.alertId, 'restart', 'Held across a restart.');
    // The delivery worker stops inside the window; a new app process on the same database takes over.
    await a.deliveryWorker!.stop();
    const b = await startTestApp({ boss: false, deliveries: true, clock, env, database: a.database });
    try {
      const [row] = await settledDeliveries(b, n.notificationId, 1);
      expect(row).toMatchObject({ status: 'SUCCESS' });
      const hits = provider.requests.filter((r) => r.path === '/quiet-restart');
      expect(hits).toHaveLength(1);
      expect(JSON.parse(hits[0]!.body).message).toContain('Held across a restart.');
    } finally {
      await b.close();
    }
  });
});
