import { type Kysely, sql } from 'kysely';

/**
 * Native channels (docs/decisions.md, "Native channels"): NTFY, PUSHOVER, TELEGRAM, DISCORD, TEAMS and
 * WEB_PUSH (one per subscribed browser) join the service types. Their deliveries' destination: the URL's origin for those the user gives a
 * URL (an ntfy server, a Discord or Teams webhook, a push service's endpoint), the provider's name for
 * Pushover and Telegram. The VAPID keys of Web Push are generated at first start into app_secrets.
 */
const ALL_TYPES = `'WEBHOOK','SLACK_WEBHOOK','EMAIL','SMS','NTFY','PUSHOVER','TELEGRAM','DISCORD','TEAMS','WEB_PUSH'`;
const OLD_TYPES = `'WEBHOOK','SLACK_WEBHOOK','EMAIL','SMS'`;

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
async function destinationFunction(db: Kysely<any>, withNative: boolean): Promise<void> {
  const native = withNative
    ? sql`WHEN 'PUSHOVER' THEN 'pushover' WHEN 'TELEGRAM' THEN 'telegram'
          WHEN 'WEB_PUSH' THEN coalesce(lower(substring(config->>'endpoint' from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+')), '')`
    : sql``;
  await sql`
    CREATE OR REPLACE FUNCTION delivery_destination(service_type text, config jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE service_type
        WHEN 'EMAIL' THEN 'smtp'
        WHEN 'SMS' THEN 'sms'
        ${native}
        ELSE coalesce(lower(substring(config->>'url' from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+')), '')
      END
    $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE notification_services DROP CONSTRAINT notification_services_type_check`.execute(db);
  await sql`ALTER TABLE notification_services ADD CONSTRAINT notification_services_type_check
            CHECK (type IN (${sql.raw(ALL_TYPES)}))`.execute(db);
  await destinationFunction(db, true);
  // Quiet hours (docs/decisions.md, "Quiet hours"): one window a day per user, in their time zone, for
  // every channel or the ones named. A delivery made inside it is held until its end (held_until); the
  // first held delivery of a service and window carries the others (digest_of) as one digest.
  await db.schema
    .createTable('quiet_hours')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('start_time', 'time', (c) => c.notNull())
    .addColumn('end_time', 'time', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('service_ids', sql`uuid[]`)
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`
    CREATE FUNCTION quiet_window_end(enabled boolean, s time, e time, tz text, at timestamptz)
    RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN enabled IS NOT TRUE OR s = e THEN NULL
        WHEN s < e AND (at AT TIME ZONE tz)::time >= s AND (at AT TIME ZONE tz)::time < e
          THEN ((at AT TIME ZONE tz)::date + e) AT TIME ZONE tz
        WHEN s > e AND (at AT TIME ZONE tz)::time >= s
          THEN ((at AT TIME ZONE tz)::date + 1 + e) AT TIME ZONE tz
        WHEN s > e AND (at AT TIME ZONE tz)::time < e
          THEN ((at AT TIME ZONE tz)::date + e) AT TIME ZONE tz
      END
    $$`.execute(db);
  await db.schema
    .alterTable('notification_deliveries')
    .addColumn('held_until', 'timestamptz')
    .addColumn('digest_of', 'uuid')
    .execute();
  await sql`CREATE INDEX deliveries_digest_idx ON notification_deliveries (digest_of) WHERE digest_of IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX deliveries_held_idx ON notification_deliveries (notification_service_id, held_until)
            WHERE held_until IS NOT NULL AND status = 'PENDING'`.execute(db);
  // Urgency and snooze of an alert (docs/decisions.md, "Urgency and snooze").
  await db.schema
    .alterTable('alerts')
    .addColumn('urgent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('snoozed_until', 'timestamptz')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS deliveries_held_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS deliveries_digest_idx`.execute(db);
  await db.schema
    .alterTable('notification_deliveries')
    .dropColumn('held_until')
    .dropColumn('digest_of')
    .execute();
  await sql`DROP FUNCTION IF EXISTS quiet_window_end(boolean, time, time, text, timestamptz)`.execute(db);
  await db.schema.dropTable('quiet_hours').ifExists().execute();
  await db.schema.alterTable('alerts').dropColumn('urgent').dropColumn('snoozed_until').execute();
  await sql`DELETE FROM notification_services WHERE type NOT IN (${sql.raw(OLD_TYPES)})`.execute(db);
  await sql`ALTER TABLE notification_services DROP CONSTRAINT notification_services_type_check`.execute(db);
  await sql`ALTER TABLE notification_services ADD CONSTRAINT notification_services_type_check
            CHECK (type IN (${sql.raw(OLD_TYPES)}))`.execute(db);
  await destinationFunction(db, false);
}
