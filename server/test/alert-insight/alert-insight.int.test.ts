import { type AlertInsight, type AlertRow, explainEvaluation } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAlerts,
  createTemplate,
  type EngineApp,
  startEngineApp,
  waitFor,
} from '../engine/engine-fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';

/**
 * The alert page's data on REST and tRPC ([alert-insight]): owner or admin only, what the engine
 * recorded (polls, last answer, notifications with deliveries), the evaluator's explanation, the
 * dates the alert polls on the list rows, and "Check now" through the engine's own path.
 */
let world: EngineApp;
let t: TestApp;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let alertId: string;
const answer = {
  rooms: [
    { name: 'Lagoon View', available: true, remaining: 2, price: 689 },
    { name: 'Garden View', available: false, remaining: 0, price: 1200 },
  ],
};
const watch = {
  all: [{ path: 'rooms[*].price', operator: 'lte' as const, value: 1000, label: 'Price' }],
  notifyOn: 'firstMatch' as const,
};

beforeAll(async () => {
  world = await startEngineApp({ deliveries: true, owner: true });
  const { upstream, planner } = world;
  t = world.t;
  owner = world.owner!;
  upstream.set('/rooms', { body: answer });
  other = await createUser(t);
  admin = await createUser(t, { role: 'admin' });
  const templateId = await createTemplate(t.db, `${upstream.url}/rooms`);
  await t.db
    .updateTable('templates')
    .set({
      default_query: JSON.stringify({ checkIn: '2026-12-23', checkOut: '2026-12-27' }),
      editable_fields: JSON.stringify([
        { target: 'QUERY', path: 'checkIn', label: 'Check-in', fieldType: 'DATE' },
        { target: 'QUERY', path: 'checkOut', label: 'Check-out', fieldType: 'DATE' },
      ]),
    })
    .where('id', '=', templateId)
    .execute();
  alertId = (await createAlerts(t.db, planner, templateId, [{ title: 'Lagoon', watch, interval: 3600 }]))[0]!;
  await t.db
    .updateTable('alerts')
    .set({ overrides: JSON.stringify({ query: { checkIn: '2027-01-02', checkOut: '2027-01-06' } }) })
    .where('id', '=', alertId!)
    .execute();
  await world.engine.start();
  await waitFor(
    () =>
      t.db
        .selectFrom('notification_deliveries')
        .select('status')
        .where('status', '=', 'SUCCESS')
        .executeTakeFirst(),
    { what: 'the first poll to notify and deliver', timeoutMs: 30_000 },
  );
}, 120_000);

afterAll(() => world?.close());

const get = (url: string, token: string) => t.request({ method: 'GET', url, token });

describe('alert insight', () => {
  it('REST answers the page: polls, last answer, the evaluator’s explanation, notifications', async () => {
    const res = await get(`/api/registrations/${alertId}/insight`, owner.token);
    expect(res.statusCode).toBe(200);
    const insight = res.json<{ data: AlertInsight }>().data;
    expect(insight.alert).toMatchObject({
      id: alertId,
      status: 'FIRING',
      dateRange: { start: '2027-01-02', end: '2027-01-06' },
    });
    expect(insight.polls[0]).toMatchObject({
      outcome: 'matched',
      statusCode: 200,
      via: null,
      notified: true,
      watchedValue: 689,
    });
    expect(insight.timeline.polls).toBeGreaterThanOrEqual(1);
    expect(insight.timeline.buckets.at(-1)).toMatchObject({ matched: 1, minValue: 689 });
    expect(insight.lastAnswer).toMatchObject({ statusCode: 200, json: answer });
    expect(insight.explanation).toEqual(JSON.parse(JSON.stringify(explainEvaluation(watch, answer, null))));
    expect(insight.explanation!.rules[0]).toMatchObject({ matched: [689], found: [689, 1200] });
    expect(insight.notifications).toHaveLength(1);
    expect(insight.notifications[0]!.message).toContain('Lagoon View: 2 rooms available at $689');
    expect(insight.notifications[0]!.message).not.toContain('1200');
    expect(insight.notifications[0]!.deliveries[0]).toMatchObject({
      status: 'SUCCESS',
      serviceType: 'WEBHOOK',
    });
  });

  it('another user gets 404; an admin reads it through the admin route; the owner not through it', async () => {
    expect((await get(`/api/registrations/${alertId}/insight`, other.token)).statusCode).toBe(404);
    expect((await get(`/api/admin/registrations/${alertId}/insight`, owner.token)).statusCode).toBe(403);
    const res = await get(`/api/admin/registrations/${alertId}/insight`, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: AlertInsight }>().data.alert.user.email).toBe(owner.email);
    const caller = t.request({
      method: 'GET',
      url: `/trpc/alertInsight.get?input=${encodeURIComponent(JSON.stringify({ id: alertId }))}`,
      token: other.token,
    });
    expect((await caller).statusCode).toBe(404);
  });

  it('list rows carry the polled dates and the alert’s activity', async () => {
    const res = await get('/api/users/me/registrations', owner.token);
    const [row] = res.json<{ data: AlertRow[] }>().data;
    expect(row!.dateRange).toEqual({ start: '2027-01-02', end: '2027-01-06' });
    expect(row!.activity.lastCheckedAt).not.toBeNull();
    expect(row!.activity.nextCheckAt).not.toBeNull();
    expect(row!.activity.availabilityChangedAt).not.toBeNull();
    expect(row!.activity.lastError).toBeNull();
  });

  it('Check now polls at once through the engine and records it; a second one within 30 s is refused', async () => {
    const before = (await get(`/api/registrations/${alertId}/insight`, owner.token)).json<{
      data: AlertInsight;
    }>().data;
    const check = await t.request({
      method: 'POST',
      url: `/api/registrations/${alertId}/check`,
      token: owner.token,
    });
    expect(check.statusCode).toBe(202);
    await waitFor(
      async () =>
        (await get(`/api/registrations/${alertId}/insight`, owner.token)).json<{ data: AlertInsight }>().data
          .polls.length > before.polls.length,
      { what: 'the checked poll to be recorded' },
    );
    const again = await t.request({
      method: 'POST',
      url: `/api/registrations/${alertId}/check`,
      token: owner.token,
    });
    expect(again.statusCode).toBe(429);
    expect(again.json<{ message: string }>().message).toMatch(/Try again in \d+ s/);
    const notMine = await t.request({
      method: 'POST',
      url: `/api/registrations/${alertId}/check`,
      token: other.token,
    });
    expect(notMine.statusCode).toBe(404);
  });

  it('documents the routes in OpenAPI', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/registrations/{id}/insight',
        '/api/registrations/{id}/check',
        '/api/admin/registrations/{id}/insight',
        '/api/admin/registrations/{id}/check',
      ]),
    );
  });
});
