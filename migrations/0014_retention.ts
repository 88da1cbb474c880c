import { type Kysely, sql } from 'kysely';

/**
 * Retention (docs/decisions.md, "Retention"):
 * - notifications_created_idx: the maintenance job finds notifications past NOTIFICATION_RETENTION_DAYS
 *   by age, across every user (their deliveries go with them: ON DELETE CASCADE).
 * - poll_runs_proxy_idx: deleting a proxy sets `proxy_id` to NULL in its poll runs (ON DELETE SET
 *   NULL); without an index PostgreSQL scanned every poll run to find them. Partial: polls sent
 *   directly name no proxy and need no entry.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('notifications_created_idx').on('notifications').column('created_at').execute();
  await sql`CREATE INDEX poll_runs_proxy_idx ON poll_runs (proxy_id) WHERE proxy_id IS NOT NULL`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS poll_runs_proxy_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS notifications_created_idx`.execute(db);
}
