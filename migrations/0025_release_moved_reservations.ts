import { type Kysely, sql } from 'kysely';

/**
 * A reservation moved earlier is handed back to the pool (docs/decisions.md, "Two rows per poll"):
 * when an update makes a reserved alert (claimed by a worker, no claim token) due sooner than the
 * reserved time, or unscheduled, and leaves the claim as it was (an edit, a restart, Check now, a
 * pause written straight to the row), the row is released
 * in the same update. Migration 0023's trigger then announces it, and a worker claims it like any due
 * alert; the worker that reserved it no longer looks for moved reservations. The condition is the
 * trigger's WHEN, so the engine's own claims and write-backs (due times moving later, or the claim
 * changing) call nothing.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION alerts_release_moved_reservation() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.claimed_by := NULL;
      NEW.claimed_until := NULL;
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER alerts_release_moved_reservation BEFORE UPDATE OF next_due_at ON alerts
    FOR EACH ROW WHEN (OLD.claimed_by IS NOT NULL AND OLD.claim_token IS NULL
      AND NEW.claimed_by IS NOT DISTINCT FROM OLD.claimed_by AND NEW.claim_token IS NULL
      AND (NEW.next_due_at < OLD.next_due_at OR NEW.next_due_at IS NULL OR OLD.next_due_at IS NULL))
    EXECUTE FUNCTION alerts_release_moved_reservation()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS alerts_release_moved_reservation ON alerts`.execute(db);
  await sql`DROP FUNCTION IF EXISTS alerts_release_moved_reservation()`.execute(db);
}
