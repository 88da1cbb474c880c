import { type Kysely, sql } from 'kysely';

const active = sql.raw(`('ACTIVE', 'FIRING', 'ERROR')`);

/**
 * The polling engine's bookkeeping (docs/decisions.md):
 * - registrations.claimed_by / claim_token: which worker holds a claimed alert, and which claim, so a
 *   write-back of a claim that was taken away (dead worker reaped, alert reset) is ignored.
 * - registrations.active_since: when polling last (re)started, the base of the staleness flag.
 * - engine_workers: one heartbeat row per worker process; a worker whose heartbeat stops has its
 *   claims released by the others within seconds.
 * - a trigger that restarts an alert's match state when it is polled again after BOOKED, PASSED,
 *   DISABLED or INACTIVE, whoever writes the status (user, admin, REST).
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

  // Polling that starts again (BOOKED → ACTIVE, say) starts afresh: the staleness clock, the match
  // state (firstMatch notifies again about a room still open) and the changed/not_changed baseline.
  // The registrations service sets the due time; this holds whoever writes the status.
  await sql`
    CREATE FUNCTION registrations_restart_polling() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.active_since := now();
      NEW.last_matched := false;
      NEW.last_values := NULL;
      NEW.consecutive_errors := 0;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER registrations_restart_polling BEFORE UPDATE OF status ON registrations
    FOR EACH ROW WHEN (NEW.status IN ${active} AND OLD.status NOT IN ${active})
    EXECUTE FUNCTION registrations_restart_polling()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS registrations_restart_polling ON registrations`.execute(db);
  await sql`DROP FUNCTION IF EXISTS registrations_restart_polling()`.execute(db);
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
