import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import { polledStatusesSql } from '../../db/polled-statuses.ts';
import type { DB, UserRow } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

export interface AccountListRow extends UserRow {
  alert_count: number;
  channel_count: number;
}

/** Accounts with their (unarchived) alert and channel counts. */
function accountsWithCounts(db: Db) {
  return db
    .selectFrom('users as u')
    .selectAll('u')
    .select((eb) => [
      eb
        .selectFrom('alerts as a')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('a.user_id', '=', 'u.id')
        .where('a.status', '<>', 'ARCHIVED')
        .as('alert_count'),
      eb
        .selectFrom('notification_services as s')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('s.user_id', '=', 'u.id')
        .as('channel_count'),
    ]);
}

type CountedRow = UserRow & { alert_count: string | null; channel_count: string | null };
const counted = (r: CountedRow): AccountListRow => ({
  ...r,
  alert_count: Number(r.alert_count),
  channel_count: Number(r.channel_count),
});

/** Every account, newest first; `search` matches name or e-mail. */
export async function listAccounts(db: Db, search: string | undefined): Promise<AccountListRow[]> {
  let q = accountsWithCounts(db).orderBy('u.created_at', 'desc').orderBy('u.id');
  if (search) {
    // A literal match: % and _ typed by the admin are not wildcards.
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(u.email)`, 'like', pattern),
        eb(sql`lower(coalesce(u.name, ''))`, 'like', pattern),
      ]),
    );
  }
  return (await q.execute()).map(counted);
}

export async function findAccount(db: Db, id: string): Promise<AccountListRow | undefined> {
  const row = await accountsWithCounts(db).where('u.id', '=', id).executeTakeFirst();
  return row && counted(row);
}

/** The account's alerts (archived ones too) with their template's name, newest first. */
export function listAccountAlerts(db: Db, userId: string) {
  return db
    .selectFrom('alerts as a')
    .innerJoin('templates as t', 't.id', 'a.template_id')
    .select(['a.id', 'a.title', 'a.party_name', 'a.status', 'a.created_at', 't.name as template_name'])
    .where('a.user_id', '=', userId)
    .orderBy('a.created_at', 'desc')
    .execute();
}

export async function countOwned(db: Db, userId: string) {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('watchlists')
        .select(eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .as('watchlists'),
      eb
        .selectFrom('api_tokens')
        .select(eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .as('api_tokens'),
    ])
    .executeTakeFirstOrThrow();
  return { watchlists: Number(row.watchlists), apiTokens: Number(row.api_tokens) };
}

/**
 * Serialises changes to who is super admin, so two simultaneous demotions cannot both see
 * "another super admin remains" and leave none.
 */
export async function lockSuperAdmins(trx: Transaction<DB>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('resort-alerts:super-admins'))`.execute(trx);
}

/** Enabled super admins other than `exceptId`. */
export async function countOtherSuperAdmins(db: Db, exceptId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('id', '<>', exceptId)
    .where(sql<boolean>`'super_admin' = ANY(roles)`)
    .where('disabled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function setDisabled(db: Db, id: string, at: Date | null): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ disabled_at: at, updated_at: databaseNow })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Stops polling the account's polled alerts: DISABLED, remembering the status to restore. */
export async function suspendAlerts(db: Db, userId: string): Promise<number> {
  const result = await sql`
    UPDATE alerts SET suspended_from_status = status, status = 'DISABLED', next_due_at = NULL,
      updated_at = now()
    WHERE user_id = ${userId} AND status IN ${polledStatusesSql}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Restores what suspendAlerts stopped; the engine schedules them afresh (no due time). An alert an
 * administrator moved on meanwhile keeps its new status.
 */
export async function resumeAlerts(db: Db, userId: string): Promise<number> {
  const result = await sql`
    UPDATE alerts SET status = suspended_from_status, suspended_from_status = NULL, next_due_at = NULL,
      updated_at = now()
    WHERE user_id = ${userId} AND suspended_from_status IS NOT NULL AND status = 'DISABLED'`.execute(db);
  await sql`UPDATE alerts SET suspended_from_status = NULL
    WHERE user_id = ${userId} AND suspended_from_status IS NOT NULL`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export function setRoles(db: Db, id: string, roles: string[]): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ roles, updated_at: databaseNow })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the account; its alerts, channels, watchlists, tokens, sessions and history cascade. */
export async function deleteAccount(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function readSetting<T>(db: Db, name: string): Promise<T | undefined> {
  const row = await db.selectFrom('app_settings').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value as T | undefined;
}

export async function writeSetting(db: Db, name: string, value: unknown): Promise<void> {
  await db
    .insertInto('app_settings')
    .values({ name, value: JSON.stringify(value) })
    .onConflict((oc) =>
      oc.column('name').doUpdateSet({ value: JSON.stringify(value), updated_at: databaseNow }),
    )
    .execute();
}

/**
 * The account's own rows for its export, as stored (JSON-ready): no password, token or code hashes.
 */
export async function exportAccountRows(db: Db, userId: string) {
  const [alerts, channels, watchlists, notifications, apiTokens] = await Promise.all([
    db
      .selectFrom('alerts as a')
      .innerJoin('templates as t', 't.id', 'a.template_id')
      .select([
        'a.id',
        'a.title',
        'a.party_name',
        'a.status',
        'a.tags',
        'a.custom_headers',
        'a.custom_query',
        'a.custom_body',
        'a.overrides',
        'a.watch_config',
        'a.polling_interval_seconds',
        'a.last_run_at',
        'a.last_notified_at',
        'a.created_at',
        'a.updated_at',
        't.id as template_id',
        't.name as template_name',
      ])
      .where('a.user_id', '=', userId)
      .orderBy('a.created_at')
      .execute(),
    db
      .selectFrom('notification_services')
      .select(['id', 'type', 'label', 'is_active', 'config', 'verified_at', 'created_at', 'updated_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
    db
      .selectFrom('watchlists as w')
      .selectAll('w')
      .select((eb) =>
        eb
          .selectFrom('watchlist_alerts as wa')
          .select(sql<string[]>`coalesce(array_agg(wa.alert_id), '{}')`.as('ids'))
          .whereRef('wa.watchlist_id', '=', 'w.id')
          .as('alert_ids'),
      )
      .where('w.user_id', '=', userId)
      .orderBy('w.created_at')
      .execute(),
    db
      .selectFrom('notifications as n')
      .select([
        'n.id',
        'n.alert_id',
        'n.kind',
        'n.message',
        'n.created_at',
        (eb) =>
          eb
            .selectFrom('notification_deliveries as d')
            .select(
              sql`coalesce(jsonb_agg(jsonb_build_object('channelId', d.notification_service_id,
                'status', d.status, 'attempts', d.attempts, 'error', d.error,
                'dispatchedAt', d.dispatched_at)), '[]'::jsonb)`.as('deliveries'),
            )
            .whereRef('d.notification_id', '=', 'n.id')
            .as('deliveries'),
      ])
      .where('n.user_id', '=', userId)
      .orderBy('n.created_at')
      .execute(),
    db
      .selectFrom('api_tokens')
      .select([
        'id',
        'name',
        'scope',
        'display_prefix',
        'expires_at',
        'last_used_at',
        'revoked_at',
        'created_at',
      ])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),
  ]);
  return { alerts, channels, watchlists, notifications, apiTokens };
}
