import { type Kysely, sql } from 'kysely';

/**
 * The engine's wake-up (docs/decisions.md, "An idle engine sleeps until the next due time"): a worker
 * with nothing claimed sleeps until the soonest due time it read, so whatever makes an alert due
 * sooner than that announces it on `resort_alerts_due`, whoever writes it (create, edit, status,
 * resume, unarchive, Check now, claims handed back by a stopping or dead worker). The condition is the
 * trigger's WHEN, so the engine's own claims and write-backs (due times moving later) call nothing;
 * NOTIFY folds the announcements of one transaction into one.
 */
const polled = sql.raw(`('ACTIVE', 'FIRING', 'ERROR')`);

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION alerts_announce_due() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('resort_alerts_due', '');
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER alerts_due_inserted AFTER INSERT ON alerts
    FOR EACH ROW WHEN (NEW.status IN ${polled})
    EXECUTE FUNCTION alerts_announce_due()`.execute(db);
  // Sooner: unscheduled (NULL: the engine schedules it), earlier than before, newly polled, or a
  // claim handed back with its due time kept.
  await sql`
    CREATE TRIGGER alerts_due_sooner AFTER UPDATE OF next_due_at, claim_token, status ON alerts
    FOR EACH ROW WHEN (NEW.status IN ${polled} AND NEW.claim_token IS NULL AND (
      NEW.next_due_at IS NULL
      OR OLD.next_due_at IS NULL
      OR NEW.next_due_at < OLD.next_due_at
      OR OLD.status NOT IN ${polled}
      OR (OLD.claim_token IS NOT NULL AND NEW.next_due_at = OLD.next_due_at)))
    EXECUTE FUNCTION alerts_announce_due()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS alerts_due_sooner ON alerts`.execute(db);
  await sql`DROP TRIGGER IF EXISTS alerts_due_inserted ON alerts`.execute(db);
  await sql`DROP FUNCTION IF EXISTS alerts_announce_due()`.execute(db);
}
