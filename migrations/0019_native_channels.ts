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
  // Urgency and snooze of an alert (docs/decisions.md, "Urgency and snooze").
  await db.schema
    .alterTable('alerts')
    .addColumn('urgent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('snoozed_until', 'timestamptz')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').dropColumn('urgent').dropColumn('snoozed_until').execute();
  await sql`DELETE FROM notification_services WHERE type NOT IN (${sql.raw(OLD_TYPES)})`.execute(db);
  await sql`ALTER TABLE notification_services DROP CONSTRAINT notification_services_type_check`.execute(db);
  await sql`ALTER TABLE notification_services ADD CONSTRAINT notification_services_type_check
            CHECK (type IN (${sql.raw(OLD_TYPES)}))`.execute(db);
  await destinationFunction(db, false);
}
