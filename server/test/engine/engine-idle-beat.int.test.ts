import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineFromServices } from '../../src/engine/start-engine.ts';
import {
  alertRow,
  createAlerts,
  createTemplate,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  waitFor,
} from './engine-fixtures.ts';

/**
 * Each worker's row says how long it stays live (docs/decisions.md, "A worker announces its own
 * deadline"): a worker with no alert to poll beats rarely and announces a long deadline, which its
 * peers honour; one that polls beats every second under ENGINE_WORKER_TIMEOUT_SECONDS; a worker past
 * its deadline is reaped and its claims released.
 */

const TIMEOUT_SECONDS = 5;

async function workerRow(app: EngineApp, workerId: string) {
  return app.t.db
    .selectFrom('engine_workers')
    .select([
      'id',
      'heartbeat_at',
      sql<number>`extract(epoch FROM live_until - heartbeat_at)::float8`.as('live_for'),
      sql<number>`extract(epoch FROM now() - heartbeat_at)::float8`.as('beat_age'),
    ])
    .where('id', '=', workerId)
    .executeTakeFirst();
}

describe('engine: a worker announces its own deadline', { timeout: 150_000 }, () => {
  let app: EngineApp;
  const peers: ReturnType<typeof createEngineFromServices>[] = [];

  beforeAll(async () => {
    app = await startEngineApp({
      start: true,
      env: { ENGINE_WORKER_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) },
    });
  });

  afterAll(async () => {
    for (const peer of peers) await peer.stop();
    await app?.close();
  });

  /** Until the worker announces the deadline `seconds` long (give or take the beat's own time). */
  async function announces(workerId: string, seconds: number | 'long') {
    await waitFor(
      async () => {
        const row = await workerRow(app, workerId);
        if (!row) return false;
        return seconds === 'long' ? row.live_for > 30 : Math.abs(row.live_for - seconds) < 0.5;
      },
      { what: `worker ${workerId} announcing ${seconds} s`, timeoutMs: 90_000, intervalMs: 250 },
    );
  }

  it('alone with no alert: beats rarely; a peer counts it live past its own timeout', async () => {
    const { workerId } = app.engine;
    // No alert anywhere: asleep, announcing a deadline much longer than the configured timeout.
    await waitFor(async () => app.engine.asleep(), { what: 'the engine asleep' });
    await announces(workerId, 'long');
    const joined = (
      await app.t.db
        .selectFrom('engine_workers')
        .select('created_at')
        .where('id', '=', workerId)
        .executeTakeFirstOrThrow()
    ).created_at;

    const peer = createEngineFromServices(app.t.services);
    peers.push(peer);
    await peer.start();
    // The first worker's last beat is older than the timeout, yet within its own deadline...
    const aged = await waitFor(
      async () => {
        const row = await workerRow(app, workerId);
        return row && row.beat_age > TIMEOUT_SECONDS + 1 ? row : null;
      },
      { what: "the idle worker's beat older than the timeout", timeoutMs: 60_000, intervalMs: 250 },
    );
    // ...and the peer, beating (and reaping: it is not alone) after that, keeps it: same row.
    await waitFor(
      async () => {
        const row = await workerRow(app, peer.workerId);
        return row && row.heartbeat_at.getTime() > aged.heartbeat_at.getTime() + (TIMEOUT_SECONDS + 1) * 1000;
      },
      { what: 'a beat of the peer after the timeout', timeoutMs: 30_000, intervalMs: 250 },
    );
    const row = await app.t.db
      .selectFrom('engine_workers')
      .select('created_at')
      .where('id', '=', workerId)
      .executeTakeFirst();
    expect(row?.created_at).toEqual(joined);
    expect(peer.figures().liveWorkers).toBe(2);

    // Once it counts the peer, it beats at the usual pace again; alone again, rarely.
    await announces(workerId, TIMEOUT_SECONDS);
    await peer.stop();
    peers.length = 0;
    await announces(workerId, 'long');
  });

  it('announces the configured timeout once it has an alert to poll', async () => {
    app.upstream.set('/rooms', { body: rooms(false) });
    const templateId = await createTemplate(app.t.db, `${app.upstream.url}/rooms`);
    const [id] = await createAlerts(app.t.db, app.planner, templateId, [{ interval: 3600 }]);
    await waitFor(async () => (await pollRuns(app.t.db, id!)).length === 1, { what: 'the first poll' });
    await announces(app.engine.workerId, TIMEOUT_SECONDS);
  });

  it('reaps a worker past its deadline and releases its claims', async () => {
    app.upstream.set('/held', { body: rooms(false) });
    const templateId = await createTemplate(app.t.db, `${app.upstream.url}/held`);
    const [id] = await createAlerts(app.t.db, app.planner, templateId, [{ interval: 3600 }]);
    await waitFor(async () => (await pollRuns(app.t.db, id!)).length === 1, { what: 'the first poll' });
    // A hung worker (no session to watch) whose deadline has passed, holding the alert's claim.
    const hung = randomUUID();
    await app.t.db
      .insertInto('engine_workers')
      .values({
        id: hung,
        hostname: 'hung',
        pid: 1,
        heartbeat_at: sql`now() - interval '1 minute'`,
        live_until: sql`now() - interval '1 second'`,
      })
      .execute();
    await app.t.db
      .updateTable('alerts')
      .set({ claimed_by: hung, claim_token: randomUUID(), claimed_until: sql`now() + interval '1 hour'` })
      .where('id', '=', id!)
      .execute();
    await waitFor(async () => (await alertRow(app.t.db, id!)).claimed_by !== hung, {
      what: "the hung worker's claim released",
    });
    expect(await workerRow(app, hung)).toBeUndefined();
  });
});
