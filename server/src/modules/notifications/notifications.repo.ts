import type { DispatchStatus, NotificationRecord, NotificationServiceType } from '@resort/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

/** Inserts the notification once per event key; a repeat returns the existing id and created=false. */
export async function insertNotificationOnce(
  db: Db,
  values: {
    userId: string;
    registrationId: string;
    eventKey: string;
    message: string;
    metadata: Record<string, unknown>;
  },
): Promise<{ id: string; created: boolean }> {
  const inserted = await db
    .insertInto('notifications')
    .values({
      user_id: values.userId,
      registration_id: values.registrationId,
      event_key: values.eventKey,
      message: values.message,
      metadata: JSON.stringify(values.metadata),
    })
    .onConflict((oc) => oc.column('event_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  const existing = await db
    .selectFrom('notifications')
    .select('id')
    .where('event_key', '=', values.eventKey)
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

/** The active services linked to the alert, owned by the alert's owner. */
export async function findActiveLinkedServiceIds(
  db: Db,
  registrationId: string,
  userId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('registration_notification_services as rns')
    .innerJoin('notification_services as s', 's.id', 'rns.notification_service_id')
    .select('s.id')
    .where('rns.registration_id', '=', registrationId)
    .where('s.user_id', '=', userId)
    .where('s.is_active', '=', true)
    .orderBy('s.created_at')
    .execute();
  return rows.map((r) => r.id);
}

export async function insertPendingDeliveries(
  db: Db,
  notificationId: string,
  userId: string,
  serviceIds: string[],
): Promise<string[]> {
  if (serviceIds.length === 0) return [];
  const rows = await db
    .insertInto('notification_deliveries')
    .values(
      serviceIds.map((serviceId) => ({
        notification_id: notificationId,
        notification_service_id: serviceId,
        user_id: userId,
        status: 'PENDING' as const,
      })),
    )
    .onConflict((oc) => oc.columns(['notification_id', 'notification_service_id']).doNothing())
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Everything one delivery attempt needs: the delivery, its notification, its service, its alert. */
export function findDeliveryForSend(db: Db, deliveryId: string) {
  return db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notification_id')
    .innerJoin('notification_services as s', 's.id', 'd.notification_service_id')
    .leftJoin('registrations as r', 'r.id', 'n.registration_id')
    .select([
      'd.id',
      'd.status',
      'd.attempts',
      'd.notification_service_id as serviceId',
      'n.message',
      'n.metadata',
      'n.registration_id as registrationId',
      'n.created_at as notificationCreatedAt',
      's.type',
      's.label',
      's.config',
      's.signing_secret as signingSecret',
      's.is_active as serviceActive',
      'r.template_id as templateId',
      'r.title',
      'r.party_name as partyName',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

/**
 * Records the outcome of attempt `previousAttempts + 1`, only if no outcome of it was recorded yet:
 * a job replayed after a crash finds the row moved on and records nothing twice.
 */
export async function recordAttempt(
  db: Db,
  deliveryId: string,
  previousAttempts: number,
  outcome: {
    status: DispatchStatus;
    attempts: number;
    error: string | null;
    nextAttemptAt: Date | null;
    dispatchedAt: Date | null;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('notification_deliveries')
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      error: outcome.error,
      next_attempt_at: outcome.nextAttemptAt,
      dispatched_at: outcome.dispatchedAt,
      updated_at: new Date(),
    })
    .where('id', '=', deliveryId)
    .where('status', '=', 'PENDING')
    .where('attempts', '=', previousAttempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The caller's deliveries, newest first: the dashboard's notification records. */
export async function listNotificationHistory(
  db: Db,
  userId: string,
  limit: number,
): Promise<NotificationRecord[]> {
  const rows = await db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notification_id')
    .innerJoin('notification_services as s', 's.id', 'd.notification_service_id')
    .leftJoin('registrations as r', 'r.id', 'n.registration_id')
    .leftJoin('templates as t', 't.id', 'r.template_id')
    .select([
      'd.id',
      'd.notification_id as notificationId',
      'd.notification_service_id as notificationServiceId',
      'd.status',
      'd.error',
      'd.attempts',
      'd.dispatched_at as dispatchedAt',
      'd.created_at as createdAt',
      'n.message',
      's.type',
      's.label',
      'r.id as registrationId',
      'r.title',
      'r.party_name as partyName',
      't.name as templateName',
    ])
    .where('d.user_id', '=', userId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    notificationId: r.notificationId,
    notificationServiceId: r.notificationServiceId,
    notificationService: { type: r.type as NotificationServiceType, label: r.label },
    registration: r.registrationId
      ? {
          id: r.registrationId,
          title: r.title,
          partyName: r.partyName,
          template: { name: r.templateName ?? '' },
        }
      : null,
    message: r.message,
    error: r.error,
    status: r.status,
    attempts: r.attempts,
    dispatchedAt: r.dispatchedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }));
}
