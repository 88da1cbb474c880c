import { type Kysely, sql } from 'kysely';

/**
 * Poll records (docs/decisions.md, "Deferred polls are not failures", "The kept answer is written
 * when it changes"):
 * - `poll_runs.deferred`: a poll not sent because its host asked us to wait (429 / Retry-After) or
 *   had as many polls waiting as it may queue. It is not the alert's failure, and the health figures
 *   do not count it as one. Runs written before say so only in their error text.
 * - `alert_answers.answer_hash`: a digest of the kept answer's JSON text. A poll whose answer has
 *   the same digest leaves the kept answer (up to 256 KB) as it is and updates only its small columns.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE poll_runs ADD COLUMN deferred boolean NOT NULL DEFAULT false`.execute(db);
  await sql`UPDATE poll_runs SET deferred = true
    WHERE NOT ok AND status_code IS NULL AND error LIKE '%poll deferred.'`.execute(db);
  await sql`ALTER TABLE alert_answers ADD COLUMN answer_hash text`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE alert_answers DROP COLUMN IF EXISTS answer_hash`.execute(db);
  await sql`ALTER TABLE poll_runs DROP COLUMN IF EXISTS deferred`.execute(db);
}
