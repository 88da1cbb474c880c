import { type Kysely, sql } from 'kysely';

/**
 * What each alert saw, when and why, pushed live ([alert-insight], docs/decisions.md):
 * - registration_answers: the last upstream answer of each alert (capped by the engine) and the
 *   values kept before it, so the alert page explains the latest evaluation with the evaluator itself.
 *   A table of its own keeps the alert rows (listed, claimed, updated every poll) narrow.
 * - registrations.availability_changed_at: when the match state last flipped ("available since").
 * - registrations.check_requested_at: the last "Check now", the base of its rate limit.
 * - poll_runs.watched_value: the number the timeline plots; the per-alert index now covers what the
 *   timeline aggregates, so 48 h of 5 s polls are read from the index alone.
 * - live_events: a short log of notification, delivery and status events per user, written by
 *   triggers (whoever writes: engine, delivery jobs, REST) and announced with NOTIFY; a reconnecting
 *   browser resumes after the last event it saw. Poll events are announced, not kept (the timeline
 *   refetches on reconnect), one NOTIFY per written batch.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('registration_answers')
    .addColumn('registration_id', 'uuid', (c) =>
      c.primaryKey().references('registrations.id').onDelete('cascade'),
    )
    .addColumn('answer', 'jsonb')
    .addColumn('answer_bytes', 'integer', (c) => c.notNull())
    .addColumn('previous_values', 'jsonb')
    .addColumn('status_code', 'integer')
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .alterTable('registrations')
    .addColumn('availability_changed_at', 'timestamptz')
    .addColumn('check_requested_at', 'timestamptz')
    .execute();
  await sql`
    CREATE FUNCTION registrations_availability_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.availability_changed_at := now();
      RETURN NEW;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER registrations_availability_changed BEFORE UPDATE OF last_matched ON registrations
    FOR EACH ROW WHEN (NEW.last_matched IS DISTINCT FROM OLD.last_matched)
    EXECUTE FUNCTION registrations_availability_changed()`.execute(db);

  await db.schema.alterTable('poll_runs').addColumn('watched_value', 'double precision').execute();
  await sql`CREATE INDEX poll_runs_timeline_idx ON poll_runs (registration_id, created_at)
            INCLUDE (ok, matched, watched_value)`.execute(db);
  await db.schema.dropIndex('poll_runs_registration_idx').execute();

  // The alert page lists an alert's newest notifications (an everyMatch alert may have thousands).
  await db.schema
    .createIndex('notifications_registration_created_idx')
    .on('notifications')
    .columns(['registration_id', 'created_at'])
    .execute();
  await db.schema.dropIndex('notifications_registration_idx').execute();

  await db.schema
    .createTable('live_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('registration_id', 'uuid')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('live_events_user_idx').on('live_events').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('live_events_created_idx').on('live_events').column('created_at').execute();

  // One function records and announces an event; the payload NOTIFY carries stays far below 8000 bytes.
  await sql`
    CREATE FUNCTION live_event(p_user uuid, p_registration uuid, p_kind text, p_payload jsonb)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      v_id bigint;
    BEGIN
      INSERT INTO live_events (user_id, registration_id, kind, payload)
      VALUES (p_user, p_registration, p_kind, p_payload) RETURNING id INTO v_id;
      PERFORM pg_notify('resort_live', json_build_object('id', v_id, 'u', p_user, 'r', p_registration,
        'k', p_kind, 'p', p_payload)::text);
    END $$`.execute(db);

  await sql`
    CREATE FUNCTION live_notification_created() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM live_event(NEW.user_id, NEW.registration_id, 'notification',
        jsonb_build_object('notificationId', NEW.id, 'kind', NEW.kind, 'message', left(NEW.message, 500)));
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER live_notification_created AFTER INSERT ON notifications
            FOR EACH ROW EXECUTE FUNCTION live_notification_created()`.execute(db);

  await sql`
    CREATE FUNCTION live_delivery_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_registration uuid;
    BEGIN
      SELECT registration_id INTO v_registration FROM notifications WHERE id = NEW.notification_id;
      PERFORM live_event(NEW.user_id, v_registration, 'delivery',
        jsonb_build_object('deliveryId', NEW.id, 'notificationId', NEW.notification_id, 'status', NEW.status));
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER live_delivery_changed AFTER UPDATE OF status ON notification_deliveries
            FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status)
            EXECUTE FUNCTION live_delivery_changed()`.execute(db);

  await sql`
    CREATE FUNCTION live_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM live_event(NEW.user_id, NEW.id, 'status',
        jsonb_build_object('status', NEW.status, 'previous', OLD.status));
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER live_status_changed AFTER UPDATE OF status ON registrations
            FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status)
            EXECUTE FUNCTION live_status_changed()`.execute(db);

  // Polls: one announcement per inserted batch (chunks of 60), not kept.
  await sql`
    CREATE FUNCTION live_polls_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      chunk text;
    BEGIN
      FOR chunk IN
        SELECT json_agg(json_build_array(p.user_id, p.registration_id, p.status))::text
        FROM (
          SELECT r.user_id, r.id AS registration_id, r.status, (row_number() OVER () - 1) / 60 AS part
          FROM (SELECT DISTINCT registration_id FROM new_runs) n
          JOIN registrations r ON r.id = n.registration_id
        ) p
        GROUP BY p.part
      LOOP
        PERFORM pg_notify('resort_live_polls', chunk);
      END LOOP;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER live_polls_recorded AFTER INSERT ON poll_runs
            REFERENCING NEW TABLE AS new_runs FOR EACH STATEMENT
            EXECUTE FUNCTION live_polls_recorded()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS live_polls_recorded ON poll_runs`.execute(db);
  await sql`DROP TRIGGER IF EXISTS live_status_changed ON registrations`.execute(db);
  await sql`DROP TRIGGER IF EXISTS live_delivery_changed ON notification_deliveries`.execute(db);
  await sql`DROP TRIGGER IF EXISTS live_notification_created ON notifications`.execute(db);
  await sql`DROP TRIGGER IF EXISTS registrations_availability_changed ON registrations`.execute(db);
  for (const fn of [
    'live_polls_recorded()',
    'live_status_changed()',
    'live_delivery_changed()',
    'live_notification_created()',
    'live_event(uuid, uuid, text, jsonb)',
    'registrations_availability_changed()',
  ]) {
    await sql.raw(`DROP FUNCTION IF EXISTS ${fn}`).execute(db);
  }
  await db.schema.dropTable('live_events').ifExists().execute();
  await db.schema
    .createIndex('notifications_registration_idx')
    .on('notifications')
    .column('registration_id')
    .execute();
  await sql`DROP INDEX IF EXISTS notifications_registration_created_idx`.execute(db);
  await db.schema
    .createIndex('poll_runs_registration_idx')
    .on('poll_runs')
    .columns(['registration_id', 'created_at'])
    .execute();
  await sql`DROP INDEX IF EXISTS poll_runs_timeline_idx`.execute(db);
  await db.schema.alterTable('poll_runs').dropColumn('watched_value').execute();
  await db.schema
    .alterTable('registrations')
    .dropColumn('availability_changed_at')
    .dropColumn('check_requested_at')
    .execute();
  await db.schema.dropTable('registration_answers').ifExists().execute();
}
