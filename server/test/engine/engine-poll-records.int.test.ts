import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAlerts,
  createTemplate,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  startUpstream,
  type Upstream,
  waitFor,
} from './engine-fixtures.ts';

/**
 * What a poll leaves behind: a deferred poll is not a failure in the health figures, and a kept
 * answer that did not change is not written again (docs/product.md, "Polling and rules").
 */
let app: EngineApp;
let t: EngineApp['t'];
let upstream: Upstream;
let planner: EngineApp['planner'];

beforeAll(async () => {
  app = await startEngineApp({ start: true });
  ({ t, upstream, planner } = app);
});

afterAll(async () => {
  await app?.close();
});

type Health = { data: { engine: { lastMinute: { polls: number; failures: number } } } };

describe('engine poll records', { timeout: 120_000 }, () => {
  it('counts deferred polls (a host backing off) as no failures in the health figures', async () => {
    // One alert meets the 429; the host then rests for a minute and the others' polls are deferred.
    // A host of its own, so the other tests' polls are not deferred with them.
    const resting = await startUpstream();
    resting.set('/busy-429', { status: 429, headers: { 'retry-after': '60' }, body: {} });
    resting.set('/rest', { body: rooms(false) });
    const [limited] = await createAlerts(
      t.db,
      planner,
      await createTemplate(t.db, `${resting.url}/busy-429`),
      [{}],
    );
    await waitFor(async () => (await pollRuns(t.db, limited!)).length >= 1, { what: 'the 429' });
    const deferredIds = await createAlerts(
      t.db,
      planner,
      await createTemplate(t.db, `${resting.url}/rest`),
      Array.from({ length: 4 }, (_, i) => ({ query: { n: i } })),
    );
    const runsOf = async () => (await Promise.all(deferredIds.map((id) => pollRuns(t.db, id)))).flat();
    await waitFor(async () => (await runsOf()).length >= 8, { what: 'deferred polls', timeoutMs: 60_000 });
    const runs = await runsOf();
    expect(resting.hits('/rest')).toBe(0);
    const health = await waitFor(
      async () => {
        const res = await t.request({ method: 'GET', url: '/api/health' });
        const figures = res.json<Health>().data.engine.lastMinute;
        return figures.polls >= runs.length ? figures : null;
      },
      { what: 'health figures with the deferred polls', timeoutMs: 30_000 },
    );
    // The 429 itself was answered and failed (once or twice in the minute); deferrals are not.
    expect(health.failures).toBeLessThan(runs.length);
    expect(health.failures).toBeLessThanOrEqual(
      (await pollRuns(t.db, limited!)).filter((r) => !r.deferred).length,
    );
    expect(runs.every((r) => r.deferred && !r.ok && r.error?.endsWith('poll deferred.'))).toBe(true);
    await resting.close();
  });

  it('writes the kept answer only when it changes, and the alert page shows the latest', async () => {
    // Incompressible, so PostgreSQL keeps it out of line (TOAST) as it does a real large answer.
    const filler = Array.from({ length: 1000 }, () => randomBytes(32).toString('hex'));
    const large = (price: number) => ({ ...rooms(false, price), filler });
    upstream.set('/large', { body: large(300) });
    const [id] = await createAlerts(t.db, planner, await createTemplate(t.db, `${upstream.url}/large`), [{}]);
    // The TOAST value behind the kept answer (the only one large enough to be stored out of line):
    // a new chunk id means the answer was written again.
    const toast = (
      await sql<{ name: string }>`SELECT reltoastrelid::regclass::text AS name FROM pg_class
        WHERE oid = 'alerts'::regclass`.execute(t.db)
    ).rows[0]!.name;
    const kept = async () =>
      (
        await sql<{ chunk: string | null; received_at: Date; price: number }>`
          SELECT (SELECT min(chunk_id)::text FROM ${sql.raw(toast)}) AS chunk, received_at,
                 (answer->'rooms'->0->>'price')::int AS price
          FROM alert_answers WHERE alert_id = ${id}`.execute(t.db)
      ).rows[0];
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 1, { what: 'the first poll' });
    const first = (await kept())!;
    expect(first.chunk).not.toBeNull();
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 3, {
      what: 'two more polls',
      timeoutMs: 60_000,
    });
    const unchanged = (await kept())!;
    expect(unchanged.chunk).toBe(first.chunk);
    expect(unchanged.received_at.getTime()).toBeGreaterThan(first.received_at.getTime());

    upstream.set('/large', { body: large(250) });
    const changed = await waitFor(
      async () => {
        const k = await kept();
        return k?.price === 250 ? k : null;
      },
      { what: 'the changed answer kept', timeoutMs: 60_000 },
    );
    expect(changed.chunk).not.toBe(first.chunk);
    const page = await t.db
      .selectFrom('alert_answers')
      .select(['answer', 'answer_bytes'])
      .where('alert_id', '=', id!)
      .executeTakeFirstOrThrow();
    expect(page.answer).toEqual(large(250));
    expect(page.answer_bytes).toBe(Buffer.byteLength(JSON.stringify(large(250))));
  });
});
