import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  alertRow,
  createAlerts,
  createTemplate,
  dbNow,
  type EngineApp,
  notificationsOf,
  pollRuns,
  rooms,
  startEngineApp,
  type Upstream,
  type WebhookReceiver,
  waitFor,
} from './engine-fixtures.ts';

/**
 * The engine end to end on real PostgreSQL and pg-boss, a loopback upstream and a loopback webhook
 * receiver: rules → status → notification → delivery. Each test owns its upstream path and alerts,
 * so the tests run side by side on one engine.
 */
let world: EngineApp;
let t: TestApp;
let upstream: Upstream;
let receiver: WebhookReceiver;
let planner: { userId: string; serviceId: string };
let owner: TestUser;

async function alertOn(path: string, watch: Parameters<typeof createAlerts>[3][number]['watch']) {
  upstream.set(path, { body: rooms(true) });
  const templateId = await createTemplate(t.db, `${upstream.url}${path}`);
  const [id] = await createAlerts(t.db, planner, templateId, [{ watch }]);
  return id!;
}

const runsAtLeast = (id: string, n: number) =>
  waitFor(async () => (await pollRuns(t.db, id)).length >= n, { what: `${n} polls`, timeoutMs: 45_000 });

const deliveriesFor = (id: string) => receiver.received.filter((r) => r.body.registrationId === id);

beforeAll(async () => {
  world = await startEngineApp({ deliveries: true, owner: true, start: true });
  ({ t, upstream, planner } = world);
  receiver = world.receiver!;
  owner = world.owner!;
});

afterAll(() => world?.close());

describe.concurrent('engine: rules, status and notifications', { timeout: 90_000 }, () => {
  it('firstMatch notifies once while the rule keeps holding, and the webhook receives it', async () => {
    const id = await alertOn('/first', {
      all: [{ path: 'rooms[*].available', operator: 'equals', value: true, label: 'Room open' }],
      notifyOn: 'firstMatch',
    });
    await runsAtLeast(id, 3);
    const notifications = await notificationsOf(t.db, id);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]!.message).toContain(
      'matched (Lakeside Lodge rooms, party The Parkers): R1: available.',
    );
    expect(notifications[0]!.message).toContain('Lakeside Lodge rooms, party The Parkers');
    expect((await alertRow(t.db, id)).status).toBe('FIRING');
    await waitFor(() => deliveriesFor(id).length === 1, { what: 'the webhook delivery' });
    expect(deliveriesFor(id)[0]!.body.message).toBe(notifications[0]!.message);
  });

  it('everyMatch notifies on every matching poll', async () => {
    const id = await alertOn('/every', {
      all: [{ path: 'rooms[0].price', operator: 'lte', value: 500 }],
      notifyOn: 'everyMatch',
    });
    await runsAtLeast(id, 3);
    const runs = await pollRuns(t.db, id);
    const notifications = await notificationsOf(t.db, id);
    expect(notifications.length).toBe(runs.length);
    expect(runs.every((r) => r.notified && r.matched)).toBe(true);
    expect(new Set(notifications.map((n) => n.event_key)).size).toBe(notifications.length);
    expect((await alertRow(t.db, id)).last_notified_at).not.toBeNull();
  });

  it('notifies on resolution only with notifyOnResolved', async () => {
    upstream.set('/resolve', { body: rooms(true) });
    const templateId = await createTemplate(t.db, `${upstream.url}/resolve`);
    const rule = { path: 'rooms[*].available', operator: 'equals' as const, value: true };
    const [withResolved, without] = await createAlerts(t.db, planner, templateId, [
      { watch: { all: [rule], notifyOn: 'firstMatch', notifyOnResolved: true } },
      { watch: { all: [rule], notifyOn: 'firstMatch', notifyOnResolved: false } },
    ]);
    const matched = async (id: string, value: boolean) =>
      (await pollRuns(t.db, id)).some((r) => r.matched === value);
    await waitFor(async () => (await matched(withResolved!, true)) && (await matched(without!, true)));
    upstream.set('/resolve', { body: rooms(false) });
    await waitFor(async () => (await matched(withResolved!, false)) && (await matched(without!, false)), {
      timeoutMs: 45_000,
    });
    const kinds = (await notificationsOf(t.db, withResolved!)).map((n) => n.metadata.kind);
    expect(kinds).toEqual(['MATCH', 'RESOLVED']);
    // The column says so too (the live event's kind, which decides the browser notification).
    expect((await notificationsOf(t.db, withResolved!)).map((n) => n.kind)).toEqual(['MATCH', 'RESOLVED']);
    expect((await notificationsOf(t.db, without!)).map((n) => n.metadata.kind)).toEqual(['MATCH']);
    const resolved = (await notificationsOf(t.db, withResolved!))[1]!;
    expect(resolved.message).toContain('no longer matches');
    expect((await alertRow(t.db, withResolved!)).status).toBe('ACTIVE');
  });

  it('debounceSeconds suppresses notifications that come too soon', async () => {
    const id = await alertOn('/debounce', {
      all: [{ path: 'rooms[0].available', operator: 'equals', value: true }],
      notifyOn: 'everyMatch',
      debounceSeconds: 3600,
    });
    await runsAtLeast(id, 3);
    const runs = await pollRuns(t.db, id);
    expect(runs.filter((r) => r.matched).length).toBeGreaterThanOrEqual(3);
    expect(runs.filter((r) => r.notified)).toHaveLength(1);
    expect(await notificationsOf(t.db, id)).toHaveLength(1);
  });

  it('BOOKED stops polling and notifying; ACTIVE again restarts it', async () => {
    const id = await alertOn('/booked', {
      all: [{ path: 'rooms[0].available', operator: 'equals', value: true }],
      notifyOn: 'firstMatch',
    });
    await runsAtLeast(id, 1);
    const setStatus = async (status: string) => {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/registrations/${id}`,
        token: owner.token,
        body: { status },
      });
      expect(res.statusCode).toBe(200);
    };
    await setStatus('BOOKED');
    const bookedAt = await dbNow(t.db);
    // Another alert of this engine polls twice more: time enough for the booked one to have polled.
    const sentinel = await alertOn('/booked-sentinel', {
      all: [{ path: 'rooms[0].available', operator: 'equals', value: true }],
    });
    await runsAtLeast(sentinel, 3);
    // A poll claimed just before the change may still start within the look-ahead (200 ms here).
    const after = (await pollRuns(t.db, id)).filter(
      (r) => r.started_at.getTime() > bookedAt.getTime() + 1000,
    );
    expect(after).toHaveLength(0);
    const row = await alertRow(t.db, id);
    expect(row.status).toBe('BOOKED');
    expect(await notificationsOf(t.db, id)).toHaveLength(1);

    await setStatus('ACTIVE');
    const restartedAt = await dbNow(t.db);
    await waitFor(async () =>
      (await pollRuns(t.db, id)).some((r) => r.started_at.getTime() > restartedAt.getTime()),
    );
    // Restarting starts afresh: the still-open room is news again.
    await waitFor(async () => (await notificationsOf(t.db, id)).length === 2, { what: 'a second MATCH' });
    // The notification commits before the poll's outcome is written back.
    await waitFor(async () => (await alertRow(t.db, id)).status === 'FIRING', {
      what: 'FIRING written back',
    });
  });

  it('a failing upstream drives the alert to ERROR, and a good answer brings it back to ACTIVE', async () => {
    upstream.set('/failing', { status: 503, body: { message: 'down for maintenance' } });
    const templateId = await createTemplate(t.db, `${upstream.url}/failing`);
    const [id] = await createAlerts(t.db, planner, templateId, [{}]);
    await waitFor(async () => (await alertRow(t.db, id!)).status === 'ERROR', {
      what: 'ERROR',
      timeoutMs: 45_000,
    });
    const row = await alertRow(t.db, id!);
    expect(row.consecutive_errors).toBeGreaterThanOrEqual(3);
    expect(row.last_error).toBe('Upstream answered 503.');
    expect(row.last_status_code).toBe(503);
    const runs = await pollRuns(t.db, id!);
    expect(runs.every((r) => !r.ok && r.status_code === 503)).toBe(true);

    upstream.set('/failing', { body: rooms(false) });
    await waitFor(async () => (await alertRow(t.db, id!)).status === 'ACTIVE', { what: 'recovery' });
    const recovered = await alertRow(t.db, id!);
    expect(recovered.consecutive_errors).toBe(0);
    expect(recovered.last_error).toBeNull();
    expect(await notificationsOf(t.db, id!)).toHaveLength(0);
  });
});

describe('engine: health figures', () => {
  it('reports workers, backlog, staleness and last-minute figures', async () => {
    await waitFor(async () => {
      const res = await t.request({ method: 'GET', url: '/api/health' });
      return (
        res.json<{ data: { engine: { lastMinute: { polls: number } } } }>().data.engine.lastMinute.polls > 0
      );
    });
    const res = await t.request({ method: 'GET', url: '/api/health' });
    const engineFigures = res.json<{ data: { engine: Record<string, unknown> } }>().data.engine;
    expect(engineFigures).toMatchObject({
      workers: 1,
      alerts: { polled: expect.any(Number), dueBacklog: expect.any(Number), stale: 0 },
      lastMinute: { latenessMs: { p50: expect.any(Number), p99: expect.any(Number) } },
      healthy: true,
    });
  });
});
