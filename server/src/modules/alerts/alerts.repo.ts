import { polledStatuses } from '@resort/shared';
import { type InsertObject, sql, type Transaction, type UpdateObject } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import { polledStatusesSql } from '../../db/polled-statuses.ts';
import type { AlertsTable, DB } from '../../db/types.ts';
import { isUuid } from '../../platform/ids.ts';

type Db = Database | Transaction<DB>;

/** The kept answer's columns (up to 256 KB of JSON): the engine writes them, the alert page reads them. */
type AnswerColumn = Extract<keyof AlertsTable, `answer${string}`>;

/** Every column of the alert row but the kept answer, which no list or form reads. */
const viewColumns = [
  'id',
  'user_id',
  'template_id',
  'status',
  'title',
  'party_name',
  'tags',
  'custom_headers',
  'custom_query',
  'custom_body',
  'overrides',
  'stay_window',
  'watch_config',
  'polling_interval_seconds',
  'next_due_at',
  'claimed_until',
  'last_run_at',
  'last_notified_at',
  'last_completed_at',
  'last_matched',
  'last_values',
  'last_status_code',
  'last_error',
  'consecutive_errors',
  'claimed_by',
  'claim_token',
  'active_since',
  'archived_at',
  'archived_from_status',
  'availability_changed_at',
  'urgent',
  'snoozed_until',
  'check_requested_at',
  'suspended_from_status',
  'health',
  'health_cause',
  'health_since',
  'last_success_at',
  'drift_count',
  'health_told',
  'created_at',
  'updated_at',
] as const satisfies readonly Exclude<keyof AlertsTable, AnswerColumn>[];

function selectAlerts(db: Db) {
  return db
    .selectFrom('alerts as r')
    .innerJoin('templates as t', 't.id', 'r.template_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(viewColumns.map((c) => `r.${c}` as const))
    .select([
      't.name as template_name',
      't.default_body as template_default_body',
      't.default_query as template_default_query',
      't.template_group_id as template_group_id',
      't.target_url as template_target_url',
      't.method as template_method',
      't.default_headers as template_default_headers',
      't.editable_fields as template_editable_fields',
      't.stay as template_stay',
      'u.email as user_email',
      'u.name as user_name',
    ]);
}

export type AlertView = Awaited<ReturnType<ReturnType<typeof selectAlerts>['executeTakeFirstOrThrow']>>;

/** The alerts' links to notification services, with each service's type, label and state. */
export async function listServiceLinks(db: Db, alertIds: string[]) {
  if (alertIds.length === 0) return [];
  return db
    .selectFrom('alert_notification_services as l')
    .innerJoin('notification_services as s', 's.id', 'l.notification_service_id')
    .select([
      'l.alert_id as alertId',
      'l.notification_service_id as notificationServiceId',
      's.type',
      's.label',
      's.is_active as isActive',
    ])
    .where('l.alert_id', 'in', alertIds)
    .orderBy('l.created_at')
    .execute();
}

export type ServiceLink = Awaited<ReturnType<typeof listServiceLinks>>[number];

export function findAlert(db: Db, id: string): Promise<AlertView | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return selectAlerts(db).where('r.id', '=', id).executeTakeFirst();
}

/** One owner's alerts (or everyone's without `userId`), newest first; archived ones are left out. */
export function listAlerts(db: Db, filter: { userId?: string } = {}): Promise<AlertView[]> {
  let query = selectAlerts(db)
    .where('r.status', '<>', 'ARCHIVED')
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id');
  if (filter.userId !== undefined) query = query.where('r.user_id', '=', filter.userId);
  return query.execute();
}

/** Which of `ids` are alerts of `userId` (archived ones included). */
export async function findOwnedAlertIds(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
  const valid = [...new Set(ids.filter(isUuid))];
  if (valid.length === 0) return new Set();
  const rows = await db
    .selectFrom('alerts')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', 'in', valid)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export interface AlertCounts {
  status: string;
  count: number;
  triggered: number;
}

/** The user's alerts per status, with how many notified since `since` (one statement). */
export async function countAlertsByStatus(db: Db, userId: string, since: Date): Promise<AlertCounts[]> {
  return db
    .selectFrom('alerts')
    .select([
      'status',
      sql<number>`count(*)::int`.as('count'),
      sql<number>`count(*) FILTER (WHERE last_notified_at >= ${since})::int`.as('triggered'),
    ])
    .where('user_id', '=', userId)
    .groupBy('status')
    .execute();
}

export async function countAlertsUsingTemplate(db: Db, id: string): Promise<number> {
  const row = await db
    .selectFrom('alerts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('template_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stops polling a disabled account's polled alerts: DISABLED, remembering the status to restore. */
export async function suspendOwnedAlerts(db: Db, userId: string): Promise<number> {
  const result = await sql`
    UPDATE alerts SET suspended_from_status = status, status = 'DISABLED', next_due_at = NULL,
      updated_at = now()
    WHERE user_id = ${userId} AND status IN ${polledStatusesSql}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Restores what suspendOwnedAlerts stopped; the engine schedules them afresh (no due time). An alert an
 * administrator moved on meanwhile keeps its new status.
 */
export async function resumeOwnedAlerts(db: Db, userId: string): Promise<number> {
  const result = await sql`
    UPDATE alerts SET status = suspended_from_status, suspended_from_status = NULL, next_due_at = NULL,
      updated_at = now()
    WHERE user_id = ${userId} AND suspended_from_status IS NOT NULL AND status = 'DISABLED'`.execute(db);
  await sql`UPDATE alerts SET suspended_from_status = NULL
    WHERE user_id = ${userId} AND suspended_from_status IS NOT NULL`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Column values, or SQL such as `databaseNow` (due times and stamps come from the database's clock). */
type NewAlert = InsertObject<DB, 'alerts'>;
export type AlertPatch = UpdateObject<DB, 'alerts'>;

export function insertAlert(db: Db, values: NewAlert): Promise<{ id: string }> {
  return db.insertInto('alerts').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function updateAlert(db: Db, id: string, patch: AlertPatch): Promise<boolean> {
  const result = await db
    .updateTable('alerts')
    .set({ ...patch, updated_at: databaseNow })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteAlert(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('alerts').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function replaceServiceLinks(db: Db, alertId: string, serviceIds: string[]): Promise<void> {
  await db.deleteFrom('alert_notification_services').where('alert_id', '=', alertId).execute();
  if (serviceIds.length === 0) return;
  await db
    .insertInto('alert_notification_services')
    .values(serviceIds.map((id) => ({ alert_id: alertId, notification_service_id: id })))
    .execute();
}

/** Which of `ids` are active notification services of `userId`. */
export async function findActiveServiceIds(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return new Set();
  const rows = await db
    .selectFrom('notification_services')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .where('id', 'in', valid)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function setSnooze(db: Db, id: string, until: Date | null): Promise<void> {
  await db
    .updateTable('alerts')
    .set({ snoozed_until: until, updated_at: databaseNow })
    .where('id', '=', id)
    .execute();
}

/** The template fields an alert needs: validation, defaults and the request it sends. */
export function findTemplateForAlert(db: Db, id: string) {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return db
    .selectFrom('templates')
    .select([
      'id',
      'is_active',
      'target_url',
      'method',
      'polling_interval_seconds',
      'default_headers',
      'default_query',
      'default_body',
      'editable_fields',
      'response_watch_presets',
      'stay',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export type TemplateForAlert = NonNullable<Awaited<ReturnType<typeof findTemplateForAlert>>>;

type CheckRequest =
  | { ok: true; dueAt: Date; requestedAt: Date }
  | { ok: false; reason: 'not_polled' }
  | { ok: false; reason: 'too_soon'; availableAt: Date };

/**
 * "Check now": makes a polled alert due at once, at most once per `intervalSeconds` (one statement,
 * so two app processes cannot both pass the limit). An alert already claimed keeps its imminent due
 * time: the engine is about to poll it anyway.
 */
export async function requestCheck(db: Db, id: string, intervalSeconds: number): Promise<CheckRequest> {
  const { rows } = await sql<{ due: Date; requested: Date }>`
    UPDATE alerts SET
      next_due_at = CASE WHEN claim_token IS NULL THEN now() ELSE next_due_at END,
      check_requested_at = now()
    WHERE id = ${id} AND status IN ${sql.raw(`('${polledStatuses.join("','")}')`)}
      AND (check_requested_at IS NULL OR check_requested_at <= now() - make_interval(secs => ${intervalSeconds}))
    RETURNING next_due_at AS due, check_requested_at AS requested`.execute(db);
  const row = rows[0];
  if (row) return { ok: true, dueAt: row.due, requestedAt: row.requested };
  const current = await db
    .selectFrom('alerts')
    .select(['status', 'check_requested_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!current || !(polledStatuses as readonly string[]).includes(current.status)) {
    return { ok: false, reason: 'not_polled' };
  }
  const last = current.check_requested_at ?? new Date(0);
  return { ok: false, reason: 'too_soon', availableAt: new Date(last.getTime() + intervalSeconds * 1000) };
}
