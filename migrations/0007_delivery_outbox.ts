import { type Kysely, sql } from 'kysely';

/**
 * Deliveries become their own outbox (docs/decisions.md, "[delivery]"): a PENDING row due at
 * `next_attempt_at` is claimed in batches by a dispatcher (`FOR UPDATE SKIP LOCKED`, a claim token and
 * a short lease that a live dispatcher renews), sent, and its outcome recorded only under its claim.
 * - destination: the origin a delivery goes to (scheme://host:port of a webhook or Slack URL, `smtp`,
 *   `sms`), so a dispatcher can cap and back off per destination without reading the service first.
 * - claim_token / claimed_until: who holds the row and until when; a SIGKILLed dispatcher's rows are
 *   claimable again when the lease ends.
 * - Pending work carries over: the pg-boss jobs only pointed at (delivery, attempt), and the row
 *   already holds the attempt count and the due time of a retry; first attempts become due now.
 *   The obsolete pg-boss queue is deleted at start-up (server/src/jobs/boss.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION delivery_destination(service_type text, config jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE service_type
        WHEN 'EMAIL' THEN 'smtp'
        WHEN 'SMS' THEN 'sms'
        ELSE coalesce(lower(substring(config->>'url' from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+')), '')
      END
    $$`.execute(db);
  await db.schema
    .alterTable('notification_deliveries')
    .addColumn('destination', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('claim_token', 'uuid')
    .addColumn('claimed_until', 'timestamptz')
    .execute();
  await sql`
    UPDATE notification_deliveries d
    SET destination = delivery_destination(s.type, s.config),
        next_attempt_at = CASE WHEN d.status = 'PENDING' THEN coalesce(d.next_attempt_at, d.created_at)
                               ELSE d.next_attempt_at END
    FROM notification_services s WHERE s.id = d.notification_service_id`.execute(db);
  // Room on each page keeps claims and lease renewals (no indexed column changes) HOT updates.
  await sql`ALTER TABLE notification_deliveries SET (fillfactor = 85)`.execute(db);
  // The claim walks this in due order; the health figures count it.
  await sql`CREATE INDEX deliveries_due_idx ON notification_deliveries (next_attempt_at)
            WHERE status = 'PENDING'`.execute(db);
  // Deliveries of the last minute (health figures).
  await sql`CREATE INDEX deliveries_dispatched_idx ON notification_deliveries (dispatched_at)
            WHERE dispatched_at IS NOT NULL`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS deliveries_dispatched_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS deliveries_due_idx`.execute(db);
  await sql`ALTER TABLE notification_deliveries RESET (fillfactor)`.execute(db);
  await db.schema
    .alterTable('notification_deliveries')
    .dropColumn('destination')
    .dropColumn('claim_token')
    .dropColumn('claimed_until')
    .execute();
  await sql`DROP FUNCTION IF EXISTS delivery_destination(text, jsonb)`.execute(db);
}
