import { type Kysely, sql } from 'kysely';

const active = sql.raw(`('ACTIVE', 'FIRING', 'ERROR')`);

/**
 * The polling engine's bookkeeping (DESIGN.md §7, docs/decisions.md):
 * - registrations.claimed_by / claim_token: which worker holds a claimed alert, and which claim, so a
 *   write-back of a claim that was taken away (dead worker reaped, alert reset) is ignored.
 * - registrations.active_since: when polling last (re)started, the base of the staleness flag.
 * - engine_workers: one heartbeat row per worker process; a worker whose heartbeat stops has its
 *   claims released by the others within seconds.
 * - a trigger that restarts an alert's schedule when it becomes active again or its request, rules or
 *   interval change, whoever writes the row (user, admin, REST).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('registrations')
    // Not a foreign key: workers come and go thousands of times more often than alerts, and the
    // reaper clears claims of dead workers itself.
    .addColumn('claimed_by', 'uuid')
    .addColumn('claim_token', 'uuid')
    .addColumn('active_since', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Room on each page lets the claim update (no indexed column changes) stay a HOT update.
  await sql`ALTER TABLE registrations SET (fillfactor = 80)`.execute(db);

  // Which worker made a poll: for operators, and to show that a pool shares the work.
  await db.schema.alterTable('poll_runs').addColumn('worker_id', 'uuid').execute();

  await db.schema
    .createTable('engine_workers')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await sql`
    CREATE FUNCTION registrations_restart_schedule() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.next_due_at := NULL;
      IF NEW.status IN ${active} AND OLD.status NOT IN ${active} THEN
        NEW.active_since := now();
        NEW.last_matched := false;
        NEW.last_values := NULL;
        NEW.consecutive_errors := 0;
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  // Only updates that name these columns are looked at (the engine's claims never do), and the WHEN
  // clause keeps the engine's own status writes (ACTIVE <-> FIRING <-> ERROR) from calling it.
  await sql`
    CREATE TRIGGER registrations_restart_schedule
    BEFORE UPDATE OF status, polling_interval_seconds, template_id, watch_config, custom_headers,
                     custom_query, custom_body, overrides
    ON registrations
    FOR EACH ROW WHEN (
      (NEW.status IN ${active} AND OLD.status NOT IN ${active})
      OR NEW.polling_interval_seconds IS DISTINCT FROM OLD.polling_interval_seconds
      OR NEW.template_id IS DISTINCT FROM OLD.template_id
      OR NEW.watch_config IS DISTINCT FROM OLD.watch_config
      OR NEW.custom_headers IS DISTINCT FROM OLD.custom_headers
      OR NEW.custom_query IS DISTINCT FROM OLD.custom_query
      OR NEW.custom_body IS DISTINCT FROM OLD.custom_body
      OR NEW.overrides IS DISTINCT FROM OLD.overrides
    ) EXECUTE FUNCTION registrations_restart_schedule()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS registrations_restart_schedule ON registrations`.execute(db);
  await sql`DROP FUNCTION IF EXISTS registrations_restart_schedule()`.execute(db);
  await db.schema.dropTable('engine_workers').ifExists().execute();
  await db.schema.alterTable('poll_runs').dropColumn('worker_id').execute();
  await sql`ALTER TABLE registrations RESET (fillfactor)`.execute(db);
  await db.schema
    .alterTable('registrations')
    .dropColumn('claimed_by')
    .dropColumn('claim_token')
    .dropColumn('active_since')
    .execute();
}
