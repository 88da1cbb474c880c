import { type Kysely, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/**
 * Migration 0013: the object a planner creates is an alert in the database too. A database written
 * by 0012 keeps every row, under the new names, with its links; down() gives back 0012's schema.
 */
const BEFORE = '0012_notification_kind';

let database: TestDatabase;
let handle: DatabaseHandle;
// biome-ignore lint/suspicious/noExplicitAny: the test writes 0012's tables, which today's types no longer name
let db: Kysely<any>;
let migrator: Migrator;

beforeAll(async () => {
  database = await createTestDatabase({ empty: true });
  handle = createDatabase(database.url, { max: 2 });
  db = handle.db;
  migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
});

afterAll(async () => {
  await handle?.destroy();
  await database?.drop();
});

async function migrateTo(target: string | 'latest') {
  const result = target === 'latest' ? await migrator.migrateToLatest() : await migrator.migrateTo(target);
  if (result.error) throw result.error;
}

/** Every name and definition the public schema holds, function bodies with their spacing folded. */
async function catalog() {
  const rows = async (query: ReturnType<typeof sql<{ item: string }>>) =>
    (await query.execute(db)).rows.map((r) => r.item.replace(/\s+/g, ' ').trim()).sort();
  return {
    columns: await rows(sql`SELECT table_name || '.' || column_name || ' ' || data_type AS item
      FROM information_schema.columns WHERE table_schema = 'public'`),
    indexes: await rows(sql`SELECT indexdef AS item FROM pg_indexes WHERE schemaname = 'public'`),
    constraints: await rows(sql`SELECT conrelid::regclass::text || ' ' || conname || ' '
      || pg_get_constraintdef(oid) AS item FROM pg_constraint WHERE connamespace = 'public'::regnamespace`),
    triggers: await rows(sql`SELECT pg_get_triggerdef(oid) AS item FROM pg_trigger WHERE NOT tgisinternal`),
    functions:
      await rows(sql`SELECT proname || '(' || pg_get_function_arguments(oid) || ') ' || prosrc AS item
      FROM pg_proc WHERE pronamespace = 'public'::regnamespace`),
  };
}

const select = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows;

describe('migration 0013_alert_vocabulary', () => {
  it('moves every alert row and link to the alert names, and down() restores the old schema', async () => {
    await migrateTo(BEFORE);
    const oldCatalog = await catalog();

    // As 0012 stored them: an alert with a channel, a notification and its delivery, a poll, the
    // kept answer and a watchlist membership; a second alert without links.
    const [user] = await select<{ id: string }>(sql`INSERT INTO users (email, password_hash)
      VALUES ('planner@example.test', 'x') RETURNING id`);
    const [template] = await select<{
      id: string;
    }>(sql`INSERT INTO templates (name, resort_code, target_url, method)
      VALUES ('Rooms', 'WDW', 'http://127.0.0.1:9/rooms', 'GET') RETURNING id`);
    const [service] = await select<{ id: string }>(sql`INSERT INTO notification_services
      (user_id, type, config, signing_secret)
      VALUES (${user?.id}, 'WEBHOOK', '{"url":"http://127.0.0.1:9/hook"}', 's') RETURNING id`);
    const alerts = await select<{ id: string }>(sql`INSERT INTO registrations
      (user_id, template_id, title, watch_config, polling_interval_seconds)
      VALUES (${user?.id}, ${template?.id}, 'Linked', '{"all":[],"any":[]}', 60),
             (${user?.id}, ${template?.id}, 'Plain', '{"all":[],"any":[]}', 90)
      RETURNING id`);
    const [linked, plain] = alerts.map((a) => a.id);
    await sql`INSERT INTO registration_notification_services (registration_id, notification_service_id)
      VALUES (${linked}, ${service?.id})`.execute(db);
    const [notification] = await select<{ id: string }>(sql`INSERT INTO notifications
      (user_id, registration_id, event_key, message)
      VALUES (${user?.id}, ${linked}, 'poll-1', 'Rooms are open') RETURNING id`);
    const [delivery] = await select<{ id: string }>(sql`INSERT INTO notification_deliveries
      (notification_id, notification_service_id, user_id)
      VALUES (${notification?.id}, ${service?.id}, ${user?.id}) RETURNING id`);
    await sql`INSERT INTO poll_runs
      (registration_id, due_at, started_at, finished_at, lateness_ms, duration_ms, ok, matched)
      VALUES (${linked}, now(), now(), now(), 3, 40, true, true)`.execute(db);
    await sql`INSERT INTO registration_answers (registration_id, answer, answer_bytes, received_at)
      VALUES (${linked}, '{"rooms":2}', 11, now())`.execute(db);
    const [watchlist] = await select<{ id: string }>(sql`INSERT INTO watchlists (user_id, name)
      VALUES (${user?.id}, 'Spring trip') RETURNING id`);
    await sql`INSERT INTO watchlist_registrations (watchlist_id, registration_id)
      VALUES (${watchlist?.id}, ${linked})`.execute(db);

    await migrateTo('latest');

    expect(
      await select(sql`SELECT id, user_id, template_id, title FROM alerts ORDER BY polling_interval_seconds`),
    ).toEqual([
      { id: linked, user_id: user?.id, template_id: template?.id, title: 'Linked' },
      { id: plain, user_id: user?.id, template_id: template?.id, title: 'Plain' },
    ]);
    expect(
      await select(sql`SELECT alert_id, notification_service_id FROM alert_notification_services`),
    ).toEqual([{ alert_id: linked, notification_service_id: service?.id }]);
    expect(await select(sql`SELECT id, alert_id FROM notifications`)).toEqual([
      { id: notification?.id, alert_id: linked },
    ]);
    expect(
      await select(sql`SELECT d.id, n.alert_id FROM notification_deliveries d
        JOIN notifications n ON n.id = d.notification_id`),
    ).toEqual([{ id: delivery?.id, alert_id: linked }]);
    expect(await select(sql`SELECT alert_id, matched FROM poll_runs`)).toEqual([
      { alert_id: linked, matched: true },
    ]);
    expect(await select(sql`SELECT alert_id, answer FROM alert_answers`)).toEqual([
      { alert_id: linked, answer: { rooms: 2 } },
    ]);
    expect(await select(sql`SELECT watchlist_id, alert_id FROM watchlist_alerts`)).toEqual([
      { watchlist_id: watchlist?.id, alert_id: linked },
    ]);
    // The notification trigger recorded its live event under 0012; the row keeps its alert.
    expect(await select(sql`SELECT kind, alert_id FROM live_events`)).toEqual([
      { kind: 'notification', alert_id: linked },
    ]);

    // No table, column, index, constraint, trigger or function still says registration.
    expect(JSON.stringify(await catalog())).not.toMatch(/regist|rns_/i);

    // The triggers work on the renamed tables: archiving records the status to restore and a live
    // event, a poll is announced from the alert it belongs to, a delivery's change finds its alert.
    await sql`UPDATE alerts SET status = 'ARCHIVED' WHERE id = ${plain}`.execute(db);
    await sql`INSERT INTO poll_runs (alert_id, due_at, started_at, finished_at, lateness_ms, duration_ms, ok)
      VALUES (${linked}, now(), now(), now(), 1, 20, false)`.execute(db);
    await sql`UPDATE notification_deliveries SET status = 'SUCCESS' WHERE id = ${delivery?.id}`.execute(db);
    expect(await select(sql`SELECT archived_from_status FROM alerts WHERE id = ${plain}`)).toEqual([
      { archived_from_status: 'ACTIVE' },
    ]);
    expect(await select(sql`SELECT kind, alert_id FROM live_events ORDER BY id`)).toEqual([
      { kind: 'notification', alert_id: linked },
      { kind: 'status', alert_id: plain },
      { kind: 'delivery', alert_id: linked },
    ]);
    // The foreign keys follow the rename: deleting an alert takes its answer and unlinks its notification.
    await sql`DELETE FROM alerts WHERE id = ${linked}`.execute(db);
    expect(await select(sql`SELECT count(*)::int AS n FROM alert_answers`)).toEqual([{ n: 0 }]);
    expect(await select(sql`SELECT alert_id FROM notifications`)).toEqual([{ alert_id: null }]);

    await migrateTo(BEFORE);
    expect(await catalog()).toEqual(oldCatalog);
    expect(await select(sql`SELECT id, archived_from_status FROM registrations`)).toEqual([
      { id: plain, archived_from_status: 'ACTIVE' },
    ]);
  });
});
