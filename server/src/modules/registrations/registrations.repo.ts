import { polledStatuses } from '@resort/shared';
import { type Insertable, sql, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB, RegistrationsTable } from '../../db/types.ts';
import { isUuid } from '../../lib/ids.ts';

type Db = Database | Transaction<DB>;

function selectRegistrations(db: Db) {
  return db
    .selectFrom('registrations as r')
    .innerJoin('templates as t', 't.id', 'r.template_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('r')
    .select([
      't.name as template_name',
      't.default_body as template_default_body',
      't.default_query as template_default_query',
      't.template_group_id as template_group_id',
      'u.email as user_email',
      'u.name as user_name',
    ]);
}

export type RegistrationView = Awaited<
  ReturnType<ReturnType<typeof selectRegistrations>['executeTakeFirstOrThrow']>
>;

export interface ServiceLink {
  registrationId: string;
  notificationServiceId: string;
  type: string;
  label: string | null;
  isActive: boolean;
}

export async function listServiceLinks(db: Db, registrationIds: string[]): Promise<ServiceLink[]> {
  if (registrationIds.length === 0) return [];
  return db
    .selectFrom('registration_notification_services as l')
    .innerJoin('notification_services as s', 's.id', 'l.notification_service_id')
    .select([
      'l.registration_id as registrationId',
      'l.notification_service_id as notificationServiceId',
      's.type',
      's.label',
      's.is_active as isActive',
    ])
    .where('l.registration_id', 'in', registrationIds)
    .orderBy('l.created_at')
    .execute();
}

export function findRegistration(db: Db, id: string): Promise<RegistrationView | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return selectRegistrations(db).where('r.id', '=', id).executeTakeFirst();
}

/** One owner's alerts (or everyone's without `userId`), newest first. */
export function listRegistrations(db: Db, filter: { userId?: string } = {}): Promise<RegistrationView[]> {
  let query = selectRegistrations(db).orderBy('r.created_at', 'desc').orderBy('r.id');
  if (filter.userId !== undefined) query = query.where('r.user_id', '=', filter.userId);
  return query.execute();
}

/**
 * Ids of alerts that are polled but have not completed a poll (or, never polled, have not started)
 * within three intervals of `now` (DESIGN.md §7).
 */
export async function findStaleRegistrationIds(db: Db, now: Date): Promise<Set<string>> {
  const rows = await db
    .selectFrom('registrations')
    .select('id')
    .where('status', 'in', [...polledStatuses])
    .where(
      // The same rule as the engine's health figures: counted from the last completed poll, or from
      // when polling last (re)started, so a just-reactivated alert is not flagged.
      sql<Date>`greatest(coalesce(last_completed_at, '-infinity'), active_since) + polling_interval_seconds * interval '3 seconds'`,
      '<',
      now,
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

export function insertRegistration(db: Db, values: Insertable<RegistrationsTable>): Promise<{ id: string }> {
  return db.insertInto('registrations').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function updateRegistration(
  db: Db,
  id: string,
  patch: Updateable<RegistrationsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('registrations')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteRegistration(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('registrations').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function replaceServiceLinks(
  db: Db,
  registrationId: string,
  serviceIds: string[],
): Promise<void> {
  await db
    .deleteFrom('registration_notification_services')
    .where('registration_id', '=', registrationId)
    .execute();
  if (serviceIds.length === 0) return;
  await db
    .insertInto('registration_notification_services')
    .values(serviceIds.map((id) => ({ registration_id: registrationId, notification_service_id: id })))
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

/** The template fields an alert needs: validation, defaults and the request it sends. */
export function findTemplateForRegistration(db: Db, id: string) {
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
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export type TemplateForRegistration = NonNullable<Awaited<ReturnType<typeof findTemplateForRegistration>>>;
