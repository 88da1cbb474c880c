import { type Kysely, sql } from 'kysely';

/**
 * The health notifier finds untold changes through alerts_health_untold_idx (docs/decisions.md, "Untold
 * health changes are found through their index"). PostgreSQL estimates `health_told <> CASE …` as true
 * for nearly every row, so on a large table whose health times are spread out it scanned every alert
 * row, every few seconds, instead of reading the index's few entries. Statistics on the expression give
 * the planner the true share; the planner applies them to the expression tested with IS TRUE, so the
 * index's predicate and the notifier's condition are written that way (the same rows: both columns are
 * NOT NULL).
 */
const untold = `(health_told <> CASE health WHEN 'degraded' THEN health_told ELSE health END)`;

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE STATISTICS alerts_health_untold_stats ON (${untold}) FROM alerts`).execute(db);
  await sql`DROP INDEX IF EXISTS alerts_health_untold_idx`.execute(db);
  await sql
    .raw(`CREATE INDEX alerts_health_untold_idx ON alerts (health_since) WHERE ${untold} IS TRUE`)
    .execute(db);
  await sql`ANALYZE alerts`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS alerts_health_untold_idx`.execute(db);
  await sql.raw(`CREATE INDEX alerts_health_untold_idx ON alerts (health_since) WHERE ${untold}`).execute(db);
  await sql`DROP STATISTICS IF EXISTS alerts_health_untold_stats`.execute(db);
}
