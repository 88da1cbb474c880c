import { type Kysely, sql } from 'kysely';

/**
 * The object a planner creates is an alert everywhere, the database included: tables, the
 * `registration_id` columns, their indexes, constraints, triggers and trigger functions take the
 * alert's name. Only names change; no row is rewritten. The live-event functions name the tables
 * and columns in their bodies, so they are defined again for the new names (and back in down()).
 */

type Vocabulary = 'registration' | 'alert';

/** [old, new] table names. */
const tables: [string, string][] = [
  ['registrations', 'alerts'],
  ['registration_notification_services', 'alert_notification_services'],
  ['registration_answers', 'alert_answers'],
  ['watchlist_registrations', 'watchlist_alerts'],
];

/** Tables with a `registration_id` column. */
const linkingTables = [
  'alert_notification_services',
  'alert_answers',
  'watchlist_alerts',
  'notifications',
  'poll_runs',
  'live_events',
];

/** [table (new name), old, new] constraints; a primary key's index follows its constraint. */
const constraints: [string, string, string][] = [
  ['alerts', 'registrations_pkey', 'alerts_pkey'],
  ['alerts', 'registrations_polling_interval_seconds_check', 'alerts_polling_interval_seconds_check'],
  ['alerts', 'registrations_status_check', 'alerts_status_check'],
  ['alerts', 'registrations_template_id_fkey', 'alerts_template_id_fkey'],
  ['alerts', 'registrations_user_id_fkey', 'alerts_user_id_fkey'],
  ['notifications', 'notifications_registration_id_fkey', 'notifications_alert_id_fkey'],
  ['poll_runs', 'poll_runs_registration_id_fkey', 'poll_runs_alert_id_fkey'],
  ['alert_answers', 'registration_answers_pkey', 'alert_answers_pkey'],
  ['alert_answers', 'registration_answers_registration_id_fkey', 'alert_answers_alert_id_fkey'],
  ['alert_notification_services', 'registration_notification_services_pk', 'alert_notification_services_pk'],
  [
    'alert_notification_services',
    'registration_notification_services_registration_id_fkey',
    'alert_notification_services_alert_id_fkey',
  ],
  [
    'alert_notification_services',
    'registration_notification_services_notification_service_id_fkey',
    'alert_notification_services_notification_service_id_fkey',
  ],
  ['watchlist_alerts', 'watchlist_registrations_pk', 'watchlist_alerts_pk'],
  ['watchlist_alerts', 'watchlist_registrations_registration_id_fkey', 'watchlist_alerts_alert_id_fkey'],
  ['watchlist_alerts', 'watchlist_registrations_watchlist_id_fkey', 'watchlist_alerts_watchlist_id_fkey'],
];

/** [old, new] indexes that back no constraint. */
const indexes: [string, string][] = [
  ['registrations_archivable_idx', 'alerts_archivable_idx'],
  ['registrations_archived_idx', 'alerts_archived_idx'],
  ['registrations_due_idx', 'alerts_due_idx'],
  ['registrations_template_idx', 'alerts_template_idx'],
  ['registrations_user_idx', 'alerts_user_idx'],
  ['notifications_registration_created_idx', 'notifications_alert_created_idx'],
  ['rns_service_idx', 'alert_notification_services_service_idx'],
  ['watchlist_registrations_registration_idx', 'watchlist_alerts_alert_idx'],
];

/**
 * The triggers on the alerts table and their functions share a name. BEFORE triggers fire in name
 * order, and the new names keep the old order (availability, restart, archive).
 */
const alertTriggers = ['availability_changed', 'restart_polling', 'track_archive'];

/** The live-event functions whose bodies name an alert table or column, in either vocabulary. */
function liveFunctions(word: Vocabulary) {
  const id = `${word}_id`;
  return [
    `CREATE FUNCTION live_event(p_user uuid, p_${word} uuid, p_kind text, p_payload jsonb)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      v_id bigint;
    BEGIN
      INSERT INTO live_events (user_id, ${id}, kind, payload)
      VALUES (p_user, p_${word}, p_kind, p_payload) RETURNING id INTO v_id;
      PERFORM pg_notify('resort_live', json_build_object('id', v_id, 'u', p_user, 'r', p_${word},
        'k', p_kind, 'p', p_payload)::text);
    END $$`,
    `CREATE OR REPLACE FUNCTION live_notification_created() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM live_event(NEW.user_id, NEW.${id}, 'notification',
        jsonb_build_object('notificationId', NEW.id, 'kind', NEW.kind, 'message', left(NEW.message, 500)));
      RETURN NULL;
    END $$`,
    `CREATE OR REPLACE FUNCTION live_delivery_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_${word} uuid;
    BEGIN
      SELECT ${id} INTO v_${word} FROM notifications WHERE id = NEW.notification_id;
      PERFORM live_event(NEW.user_id, v_${word}, 'delivery',
        jsonb_build_object('deliveryId', NEW.id, 'notificationId', NEW.notification_id, 'status', NEW.status));
      RETURN NULL;
    END $$`,
    `CREATE OR REPLACE FUNCTION live_polls_recorded() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      chunk text;
    BEGIN
      FOR chunk IN
        SELECT json_agg(json_build_array(p.user_id, p.${id}, p.status))::text
        FROM (
          SELECT r.user_id, r.id AS ${id}, r.status, (row_number() OVER () - 1) / 60 AS part
          FROM (SELECT DISTINCT ${id} FROM new_runs) n
          JOIN ${word}s r ON r.id = n.${id}
        ) p
        GROUP BY p.part
      LOOP
        PERFORM pg_notify('resort_live_polls', chunk);
      END LOOP;
      RETURN NULL;
    END $$`,
  ];
}

/**
 * Renames everything but the tables into `to`'s vocabulary. The lists name tables by their new
 * names: up() renames the tables first, down() last.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
async function renameWithinTables(db: Kysely<any>, to: Vocabulary): Promise<void> {
  const pick = ([oldName, newName]: [string, string]) =>
    to === 'alert' ? [oldName, newName] : [newName, oldName];
  const run = (statement: string) => sql.raw(statement).execute(db);

  const [fromColumn, intoColumn] = pick(['registration_id', 'alert_id']);
  for (const table of linkingTables)
    await run(`ALTER TABLE ${table} RENAME COLUMN ${fromColumn} TO ${intoColumn}`);
  for (const [table, ...names] of constraints) {
    const [from, into] = pick(names as [string, string]);
    await run(`ALTER TABLE ${table} RENAME CONSTRAINT ${from} TO ${into}`);
  }
  // PostgreSQL 18 names each NOT NULL constraint after its table and column; older versions have none.
  const notNull = await sql<{ table: string; name: string }>`
    SELECT conrelid::regclass::text AS table, conname AS name FROM pg_constraint
    WHERE contype = 'n' AND connamespace = current_schema()::regnamespace
      AND conname LIKE ${to === 'alert' ? '%registration%' : '%alert%'}`.execute(db);
  for (const { table, name } of notNull.rows) {
    const into =
      to === 'alert'
        ? name.replaceAll('registrations', 'alerts').replaceAll('registration', 'alert')
        : name.replaceAll('alerts', 'registrations').replaceAll('alert', 'registration');
    await run(`ALTER TABLE ${table} RENAME CONSTRAINT ${name} TO ${into}`);
  }
  for (const pair of indexes) {
    const [from, into] = pick(pair);
    await run(`ALTER INDEX ${from} RENAME TO ${into}`);
  }
  const [fromPrefix, intoPrefix] = pick(['registrations', 'alerts']);
  for (const name of alertTriggers) {
    await run(`ALTER TRIGGER ${fromPrefix}_${name} ON alerts RENAME TO ${intoPrefix}_${name}`);
    await run(`ALTER FUNCTION ${fromPrefix}_${name}() RENAME TO ${intoPrefix}_${name}`);
  }
}

/** The live-event functions for `to`'s names; a parameter cannot be renamed in place. */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
async function redefineLiveFunctions(db: Kysely<any>, to: Vocabulary): Promise<void> {
  // Their callers are PL/pgSQL, bound when they run, so dropping live_event breaks nothing.
  await sql`DROP FUNCTION live_event(uuid, uuid, text, jsonb)`.execute(db);
  for (const statement of liveFunctions(to)) await sql.raw(statement).execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  for (const [from, into] of tables) await sql.raw(`ALTER TABLE ${from} RENAME TO ${into}`).execute(db);
  await renameWithinTables(db, 'alert');
  await redefineLiveFunctions(db, 'alert');
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await renameWithinTables(db, 'registration');
  for (const [from, into] of tables) await sql.raw(`ALTER TABLE ${into} RENAME TO ${from}`).execute(db);
  await redefineLiveFunctions(db, 'registration');
}
