import { type Kysely, sql } from 'kysely';

/**
 * The kept answer moves onto the alert row (docs/decisions.md, "Two rows per poll"): the write-back
 * updates the alert row anyway, so keeping the last answer there costs no row of its own, where the
 * `alert_answers` upsert cost one per answered poll. An unchanged answer (same digest) keeps its stored
 * value as before (assigning the column to itself keeps its TOAST value). `alert_answers` stays, as a
 * view over the alert row with the table's columns, for the alert page and the operators' queries.
 *
 * `alerts_claimable_idx`: the polled alerts no worker holds, by due time. A write-back keeps most claims
 * as reservations, so nearly every due alert is held; the claim of the rest walks this small index
 * instead of every row coming due (the planner, seeing few unclaimed rows, otherwise scanned and sorted
 * the table at every tick).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE alerts
    ADD COLUMN answer jsonb,
    ADD COLUMN answer_bytes integer,
    ADD COLUMN answer_hash text,
    ADD COLUMN answer_previous_values jsonb,
    ADD COLUMN answer_status_code integer,
    ADD COLUMN answer_received_at timestamptz`.execute(db);
  await sql`UPDATE alerts r SET answer = a.answer, answer_bytes = a.answer_bytes, answer_hash = a.answer_hash,
      answer_previous_values = a.previous_values, answer_status_code = a.status_code,
      answer_received_at = a.received_at
    FROM alert_answers a WHERE a.alert_id = r.id`.execute(db);
  await sql`DROP TABLE alert_answers`.execute(db);
  await sql`CREATE VIEW alert_answers AS
    SELECT id AS alert_id, answer, answer_bytes, answer_hash, answer_previous_values AS previous_values,
           answer_status_code AS status_code, answer_received_at AS received_at,
           answer_received_at AS created_at
    FROM alerts WHERE answer_received_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX alerts_claimable_idx ON alerts (next_due_at)
    WHERE status IN ('ACTIVE', 'FIRING', 'ERROR') AND claimed_until IS NULL`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX alerts_claimable_idx`.execute(db);
  await sql`DROP VIEW alert_answers`.execute(db);
  await sql`CREATE TABLE alert_answers (
    alert_id uuid PRIMARY KEY REFERENCES alerts(id) ON DELETE CASCADE,
    answer jsonb,
    answer_bytes integer NOT NULL,
    previous_values jsonb,
    status_code integer,
    received_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    answer_hash text)`.execute(db);
  await sql`INSERT INTO alert_answers (alert_id, answer, answer_bytes, previous_values, status_code, received_at,
      answer_hash)
    SELECT id, answer, coalesce(answer_bytes, 0), answer_previous_values, answer_status_code, answer_received_at,
      answer_hash
    FROM alerts WHERE answer_received_at IS NOT NULL`.execute(db);
  await sql`ALTER TABLE alerts
    DROP COLUMN answer, DROP COLUMN answer_bytes, DROP COLUMN answer_hash, DROP COLUMN answer_previous_values,
    DROP COLUMN answer_status_code, DROP COLUMN answer_received_at`.execute(db);
}
