import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import type { Runtime } from '../../src/runtime.ts';
import { createAlerts, createPlanner, createTemplate } from '../engine/engine-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { waitFor } from '../helpers/receivers.ts';
import { startWorkerRuntime } from '../helpers/worker-process.ts';

/**
 * Retention (docs/decisions.md, "Retention"): a worker process's maintenance prunes notifications
 * with their deliveries past NOTIFICATION_RETENTION_DAYS (each alert's latest kept) and live events
 * past a day, with no browser ever subscribed; deleting a proxy finds its poll runs by an index.
 */

let database: TestDatabase;
let handle: DatabaseHandle;
let runtime: Runtime | null = null;
let userId: string;
let serviceId: string;
const ids: Record<string, string> = {};

async function notification(alertId: string | null, name: string, daysAgo: number) {
  const row = await handle.db
    .insertInto('notifications')
    .values({
      user_id: userId,
      alert_id: alertId,
      event_key: `retention-${name}`,
      kind: 'MATCH',
      message: name,
      metadata: '{}',
      created_at: sql<Date>`now() - make_interval(days => ${daysAgo})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto('notification_deliveries')
    .values({
      notification_id: row.id,
      notification_service_id: serviceId,
      user_id: userId,
      status: 'SUCCESS',
      attempts: 1,
      destination: 'http://127.0.0.1:9',
      created_at: sql<Date>`now() - make_interval(days => ${daysAgo})`,
    })
    .execute();
  ids[name] = row.id;
}

async function liveEvent(name: string, hoursAgo: number) {
  await handle.db
    .insertInto('live_events')
    .values({
      user_id: userId,
      alert_id: null,
      kind: 'notification',
      payload: JSON.stringify({ name }),
      created_at: sql<Date>`now() - make_interval(hours => ${hoursAgo})`,
    })
    .execute();
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDatabase(database.url, { max: 2 });
  const templateId = await createTemplate(handle.db, 'http://127.0.0.1:9/availability');
  const planner = await createPlanner(handle.db, 'http://127.0.0.1:9/hook');
  userId = planner.userId;
  serviceId = planner.serviceId;
  const [a, b] = await createAlerts(handle.db, planner, templateId, [{}, {}]);
  // Booked: the engine has nothing to poll; only maintenance runs.
  await handle.db.updateTable('alerts').set({ status: 'BOOKED' }).execute();
  // Alert A: everything is past the retention, so its latest stays.
  await notification(a!, 'a-100-days', 100);
  await notification(a!, 'a-60-days', 60);
  // Alert B: the old one goes, the recent one stays.
  await notification(b!, 'b-100-days', 100);
  await notification(b!, 'b-1-day', 1);
  // A notification whose alert was deleted keeps no alert to be the latest of.
  await notification(null, 'orphan-100-days', 100);
  await liveEvent('old', 48);
  await liveEvent('recent', 1);

  // A worker process: no HTTP, no browser subscribed to live events.
  runtime = await startWorkerRuntime(database.url, { NOTIFICATION_RETENTION_DAYS: '30' });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await handle?.destroy();
  await database?.drop();
});

describe('retention', { timeout: 60_000 }, () => {
  it('prunes notifications and their deliveries past the retention, keeping each alert’s latest', async () => {
    const kept = await waitFor(
      async () => {
        const rows = await handle.db.selectFrom('notifications').select('message').execute();
        return rows.length === 2 && rows.map((r) => r.message).sort();
      },
      'old notifications to be pruned',
      45_000,
    );
    expect(kept).toEqual(['a-60-days', 'b-1-day']);
    const deliveries = await handle.db
      .selectFrom('notification_deliveries')
      .select('notification_id')
      .execute();
    expect(deliveries.map((d) => d.notification_id).sort()).toEqual(
      [ids['a-60-days'], ids['b-1-day']].sort(),
    );
  });

  it('prunes live events past a day in a worker process no browser subscribed to', async () => {
    const names = async () =>
      (await handle.db.selectFrom('live_events').select('payload').execute()).map((r) => r.payload.name);
    await waitFor(async () => !(await names()).includes('old'), 'old live events to be pruned', 45_000);
    expect(await names()).toContain('recent');
  });

  it('a deleted proxy’s poll runs name no proxy, and deleting it rewrites none of them', async () => {
    const [alertId] = await handle.db.selectFrom('alerts').select('id').execute();
    const proxies = await handle.db
      .insertInto('proxies')
      .values(Array.from({ length: 50 }, (_, i) => ({ host: `proxy-${i}.example.com`, port: 8080 })))
      .returning('id')
      .execute();
    // 50,000 poll runs over 50 proxies: each proxy names 2 % of them.
    await sql`
      INSERT INTO poll_runs (alert_id, proxy_id, due_at, started_at, finished_at, lateness_ms, duration_ms, ok)
      SELECT ${alertId!.id}, (${proxies.map((p) => p.id)}::uuid[])[1 + i % 50], now(), now(), now(), 0, 10, true
      FROM generate_series(1, 50000) AS i`.execute(handle.db);
    const victim = proxies[0]!.id;
    // The poll runs' storage rows, by the transaction that last wrote each.
    const writers = async () =>
      (
        await sql<{
          w: string;
        }>`SELECT string_agg(xmin::text, ',' ORDER BY id) AS w FROM poll_blocks`.execute(handle.db)
      ).rows[0]!.w;
    const before = await writers();
    await handle.db.deleteFrom('proxies').where('id', '=', victim).execute();
    const named = await handle.db
      .selectFrom('poll_runs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('proxy_id', '=', victim)
      .executeTakeFirstOrThrow();
    expect(Number(named.n)).toBe(0);
    const unnamed = await handle.db
      .selectFrom('poll_runs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('alert_id', '=', alertId!.id)
      .where('proxy_id', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(unnamed.n)).toBeGreaterThanOrEqual(1000);
    expect(await writers()).toBe(before);
  });
});
