import { pollClassWords } from '@resort/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertRow,
  createAlerts,
  createPlanner,
  createTemplate,
  type EngineApp,
  notificationsOf,
  pollRuns,
  rooms,
  startEngineApp,
  startUpstream,
  type Upstream,
  type WebhookReceiver,
  waitFor,
} from './engine-fixtures.ts';

/**
 * An alert never fails silently (docs/product.md, "Alert health"): every poll is classified, an
 * alert turns failing after K failures and drifted after N answers without its rule's path, and
 * its owner hears once when it stops seeing and once when it sees again, through the outbox.
 */
let app: EngineApp;
let t: EngineApp['t'];
let upstream: Upstream;
let receiver: WebhookReceiver;

const html = {
  status: 403,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<!doctype html><html><body>Please verify you are a human</body></html>',
};

/** Webhook bodies that name their kind and alert (the payload says it). */
async function plannerWithKindHook() {
  const planner = await createPlanner(t.db, receiver.url);
  await sql`UPDATE notification_services SET config = jsonb_set(config, '{bodyTemplate}',
    ${JSON.stringify('{"message":"{{message}}","kind":"{{metadata.kind}}","registrationId":"{{registrationId}}"}')}::jsonb)
    WHERE id = ${planner.serviceId}`.execute(t.db);
  return planner;
}

const received = (alertIds: string[], kind?: string) =>
  receiver.received.filter(
    (r) => alertIds.includes(String(r.body.registrationId)) && (kind === undefined || r.body.kind === kind),
  );

/** How many of `ids` meet an SQL condition on the alert row. */
async function countWhere(ids: string[], condition: string) {
  const row = await t.db
    .selectFrom('alerts')
    .select(sql<number>`count(*) FILTER (WHERE ${sql.raw(condition)})::int`.as('n'))
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return row.n;
}

async function classesOf(alertId: string) {
  return new Set((await pollRuns(t.db, alertId)).map((r) => r.poll_class));
}

beforeAll(async () => {
  app = await startEngineApp({
    start: true,
    deliveries: true,
    owner: true,
    env: {
      OUTBOUND_TIMEOUT_MS: '800',
      HEALTH_NOTICE_DELAY_SECONDS: '3',
      HEALTH_NOTICE_TICK_MS: '250',
      HEALTH_SWEEP_MS: '1000',
    },
  });
  ({ t, upstream } = app);
  receiver = app.receiver!;
});

afterAll(async () => {
  await app?.close();
});

describe('never silent', { timeout: 240_000 }, () => {
  it('records each class, tells the owner once when failing and once when working again', async () => {
    const planner = await plannerWithKindHook();
    upstream.set('/switch', { body: rooms(false) });
    const [id] = await createAlerts(t.db, planner, await createTemplate(t.db, `${upstream.url}/switch`), [
      {},
    ]);
    const sees = async (cls: string) => (await classesOf(id!)).has(cls);
    await waitFor(() => sees('not_matched'), { what: 'a healthy poll', timeoutMs: 30_000 });

    upstream.set('/switch', html);
    const failing = await waitFor(
      async () => {
        const row = await alertRow(t.db, id!);
        return row.health === 'failing' && row.health_told === 'failing' ? row : null;
      },
      { what: 'the alert failing and its owner told', timeoutMs: 60_000 },
    );
    expect(failing.health_cause).toBe('refused');
    expect(failing.last_success_at).not.toBeNull();
    // More failures of other kinds, in the same episode: no second message.
    for (const [answer, cls] of [
      [{ status: 503, body: { error: 'down' } }, 'upstream_error'],
      [{ body: rooms(true), delayMs: 5000 }, 'timeout'],
      [{ headers: { 'content-type': 'text/plain' }, body: 'not json at all' }, 'invalid_answer'],
    ] as const) {
      upstream.set('/switch', answer);
      await waitFor(() => sees(cls), { what: `a ${cls} poll`, timeoutMs: 60_000 });
    }
    upstream.set('/switch', { body: rooms(false) });
    await waitFor(async () => (await alertRow(t.db, id!)).health_told === 'healthy', {
      what: 'the recovery told',
      timeoutMs: 60_000,
    });
    await waitFor(() => received([id!], 'RECOVERED').length === 1, { what: 'the recovered webhook' });

    const runs = await pollRuns(t.db, id!);
    expect(new Set(runs.map((r) => r.poll_class))).toEqual(
      new Set(['not_matched', 'refused', 'upstream_error', 'timeout', 'invalid_answer']),
    );
    expect(runs.find((r) => r.poll_class === 'refused')?.error).toBe(
      'Upstream answered 403 with an HTML page.',
    );
    const kinds = (await notificationsOf(t.db, id!)).map((n) => n.kind);
    expect(kinds).toEqual(['FAILING', 'RECOVERED']);
    expect(received([id!], 'FAILING')).toHaveLength(1);
    const told = String(received([id!], 'FAILING')[0]!.body.message);
    expect(told).toContain('Alert 1');
    expect(told.toLowerCase()).toContain(pollClassWords.refused.toLowerCase());
    expect(told).toMatch(/Last successful check/);
  });

  it('shows each poll in words in the poll log and the alert health on the alert row', async () => {
    const owner = app.owner!;
    const planner = app.planner;
    upstream.set('/owned', { status: 502, body: {} });
    const [id] = await createAlerts(t.db, planner, await createTemplate(t.db, `${upstream.url}/owned`), [{}]);
    await waitFor(async () => (await alertRow(t.db, id!)).health === 'failing', {
      what: 'the owned alert failing',
      timeoutMs: 60_000,
    });
    const res = await t.request({
      method: 'GET',
      url: `/api/registrations/${id}/insight`,
      token: owner.token,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json<{
      data: {
        alert: {
          activity: { health: string; healthCause: string; healthWords: string; lastSuccessAt: null };
        };
        polls: { pollClass: string; classWords: string }[];
        timeline: { buckets: { causes: string[] }[] };
      };
    }>().data;
    expect(data.polls[0]).toMatchObject({
      pollClass: 'upstream_error',
      classWords: pollClassWords.upstream_error,
    });
    expect(data.alert.activity).toMatchObject({
      health: 'failing',
      healthCause: 'upstream_error',
      lastSuccessAt: null,
    });
    expect(data.alert.activity.healthWords).toContain('Failing');
    expect(data.timeline.buckets.flatMap((b) => b.causes)).toContain(pollClassWords.upstream_error);
    // The dashboard's history says the notice's kind.
    const history = await waitFor(
      async () => {
        const h = await t.request({
          method: 'GET',
          url: '/api/users/me/notification-history',
          token: owner.token,
        });
        const records = h.json<{ data: { kind: string; message: string }[] }>().data;
        return records.find((r) => r.kind === 'FAILING');
      },
      { what: 'the failing notice in the history', timeoutMs: 30_000 },
    );
    expect(history.message).toContain('cannot see availability');
  });

  it('detects drift after N answers without the rule path and clears it on a normal answer', async () => {
    const planner = await plannerWithKindHook();
    upstream.set('/drift', { body: rooms(false) });
    const [id] = await createAlerts(t.db, planner, await createTemplate(t.db, `${upstream.url}/drift`), [{}]);
    await waitFor(async () => (await classesOf(id!)).has('not_matched'), { what: 'a healthy poll' });
    // The site renamed its list: the answer is fine JSON, but the rule's path is gone.
    upstream.set('/drift', { body: { data: { accommodations: [{ code: 'R1', open: true }] } } });
    await waitFor(async () => (await alertRow(t.db, id!)).health === 'degraded', { what: 'a first drift' });
    const drifted = await waitFor(
      async () => {
        const row = await alertRow(t.db, id!);
        return row.health === 'drifted' ? row : null;
      },
      { what: 'the alert drifted', timeoutMs: 60_000 },
    );
    expect(drifted.drift_count).toBe(3);
    expect(drifted.status).toBe('ACTIVE');
    const driftRuns = (await pollRuns(t.db, id!)).filter((r) => r.poll_class === 'drift');
    expect(driftRuns.length).toBeGreaterThanOrEqual(3);
    await waitFor(() => received([id!], 'DRIFTED').length === 1, {
      what: 'the drifted webhook',
      timeoutMs: 30_000,
    });

    upstream.set('/drift', { body: rooms(false) });
    await waitFor(() => received([id!], 'RECOVERED').length === 1, {
      what: 'the recovered webhook',
      timeoutMs: 60_000,
    });
    expect((await alertRow(t.db, id!)).health).toBe('healthy');
    expect((await notificationsOf(t.db, id!)).map((n) => n.kind)).toEqual(['DRIFTED', 'RECOVERED']);
  });

  it('tells an owner whose 30 alerts fail for the same cause in one grouped message', async () => {
    const planner = await plannerWithKindHook();
    upstream.set('/blocked', { body: rooms(false) });
    const template = await createTemplate(t.db, `${upstream.url}/blocked`, 'Harbour Hotel rooms');
    const ids = await createAlerts(
      t.db,
      planner,
      template,
      Array.from({ length: 30 }, (_, i) => ({ query: { n: i }, title: `Family room ${i + 1}` })),
    );
    await waitFor(async () => (await countWhere(ids, 'last_success_at IS NOT NULL')) === 30, {
      what: 'every alert polled once',
      timeoutMs: 60_000,
    });

    upstream.set('/blocked', html);
    await waitFor(async () => (await countWhere(ids, "health_told = 'failing'")) === 30, {
      what: 'all 30 told failing',
      timeoutMs: 90_000,
    });
    const notices = await t.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', planner.userId)
      .where('kind', '=', 'FAILING')
      .execute();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.metadata).toMatchObject({ kind: 'FAILING', cause: 'refused', count: 30 });
    expect([...(notices[0]!.metadata as { alertIds: string[] }).alertIds].sort()).toEqual([...ids].sort());
    expect(notices[0]!.message).toContain('30 of your alerts');
    expect(notices[0]!.message).toContain('Harbour Hotel rooms');
    await waitFor(() => received(ids, 'FAILING').length >= 1, { what: 'the grouped webhook' });
    expect(received(ids, 'FAILING')).toHaveLength(1);

    upstream.set('/blocked', { body: rooms(false) });
    await waitFor(() => received(ids, 'RECOVERED').length >= 1, {
      what: 'the grouped recovery',
      timeoutMs: 90_000,
    });
    await waitFor(async () => (await countWhere(ids, "health_told = 'healthy'")) === 30, {
      what: 'all 30 told recovered',
      timeoutMs: 60_000,
    });
    expect(received(ids, 'RECOVERED').length).toBeLessThanOrEqual(2);
  });

  it('tells nobody when the owner turned health notices off, yet keeps the health', async () => {
    const planner = await plannerWithKindHook();
    await t.db.updateTable('users').set({ health_notices: false }).where('id', '=', planner.userId).execute();
    upstream.set('/quiet', { status: 500, body: {} });
    const [id] = await createAlerts(t.db, planner, await createTemplate(t.db, `${upstream.url}/quiet`), [{}]);
    await waitFor(async () => (await alertRow(t.db, id!)).health_told === 'failing', {
      what: 'the failing health marked told',
      timeoutMs: 60_000,
    });
    expect(await notificationsOf(t.db, id!)).toEqual([]);
  });

  it('turns failing when no poll succeeds for 3 intervals, though its host only defers the polls', async () => {
    const planner = await plannerWithKindHook();
    // A host of its own: the 429 makes it rest for a minute, and the alert's polls are deferred.
    const resting = await startUpstream();
    resting.set('/resting', { status: 429, headers: { 'retry-after': '60' }, body: {} });
    const [id] = await createAlerts(t.db, planner, await createTemplate(t.db, `${resting.url}/resting`), [
      {},
    ]);
    const row = await waitFor(
      async () => {
        const r = await alertRow(t.db, id!);
        return r.health === 'failing' ? r : null;
      },
      { what: 'the alert failing without three failed polls', timeoutMs: 60_000 },
    );
    const runs = await pollRuns(t.db, id!);
    expect(runs.filter((r) => !r.deferred).length).toBeLessThan(3);
    expect(row.health_cause).toBe('refused');
    await waitFor(() => received([id!], 'FAILING').length === 1, {
      what: 'the failing webhook',
      timeoutMs: 30_000,
    });
    await resting.close();
  });
});
