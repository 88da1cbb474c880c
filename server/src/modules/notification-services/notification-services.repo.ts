import {
  type ChannelVerification,
  maskSecret,
  type NotificationService,
  type NotificationServiceConfig,
  type NotificationServiceType,
  needsVerification,
  secretConfigFields,
} from '@resort/shared';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { DB, NotificationServiceRow } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

/** What the owner sees of a channel's verification. */
export function verificationOf(
  row: Pick<NotificationServiceRow, 'type' | 'verified_at' | 'verified_via'>,
): ChannelVerification {
  if (!needsVerification(row.type)) return 'not-needed';
  if (!row.verified_at) return 'unverified';
  return row.verified_via === 'existing' ? 'existing' : 'verified';
}

/** A channel's config as its owner sees it: tokens, keys and token-bearing URLs masked. */
export function maskedConfig(type: string, config: unknown): NotificationServiceConfig {
  const masked = { ...(config as Record<string, unknown>) };
  for (const field of secretConfigFields[type as NotificationServiceType] ?? []) {
    const value = masked[field];
    if (typeof value === 'string' && value !== '') masked[field] = maskSecret(value);
  }
  return masked as unknown as NotificationServiceConfig;
}

export function toNotificationService(row: NotificationServiceRow): NotificationService {
  return {
    id: row.id,
    type: row.type as NotificationServiceType,
    label: row.label,
    isActive: row.is_active,
    config: maskedConfig(row.type, row.config),
    // Only webhooks are signed; the secret of other types is never used, so it is not shown.
    signingSecret: row.type === 'WEBHOOK' ? row.signing_secret : null,
    deactivatedReason: row.deactivated_reason,
    verification: verificationOf(row),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listNotificationServicesForUser(
  db: Db,
  userId: string,
): Promise<NotificationService[]> {
  const rows = await db
    .selectFrom('notification_services')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toNotificationService);
}

/**
 * The keys of the browsers subscribed to push, whoever's, at most `limit`: the most recently
 * subscribed, listed oldest first.
 */
export async function pushBrowserKeys(db: Db, limit: number): Promise<{ p256dh: string; auth: string }[]> {
  const rows = await db
    .selectFrom('notification_services')
    .select([sql<string>`config->>'p256dh'`.as('p256dh'), sql<string>`config->>'auth'`.as('auth')])
    .where('type', '=', 'WEB_PUSH')
    .where('is_active', '=', true)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse();
}

/** The caller's service, or undefined when it does not exist or is someone else's. */
export function findOwnedService(
  db: Db,
  userId: string,
  id: string,
): Promise<NotificationServiceRow | undefined> {
  return db
    .selectFrom('notification_services')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function insertService(
  db: Db,
  values: {
    userId: string;
    type: NotificationServiceType;
    label: string | null;
    config: NotificationServiceConfig;
    signingSecret: string;
  },
): Promise<NotificationServiceRow> {
  return db
    .insertInto('notification_services')
    .values({
      user_id: values.userId,
      type: values.type,
      label: values.label,
      is_active: true,
      config: JSON.stringify(values.config),
      signing_secret: values.signingSecret,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateOwnedService(
  db: Db,
  userId: string,
  id: string,
  patch: {
    label?: string | null;
    config?: NotificationServiceConfig;
    isActive?: boolean;
    deactivatedReason?: string | null;
    signingSecret?: string;
  },
): Promise<NotificationServiceRow | undefined> {
  return db
    .updateTable('notification_services')
    .set({
      ...(patch.label !== undefined ? { label: patch.label } : {}),
      ...(patch.config !== undefined ? { config: JSON.stringify(patch.config) } : {}),
      ...(patch.isActive !== undefined ? { is_active: patch.isActive } : {}),
      ...(patch.deactivatedReason !== undefined ? { deactivated_reason: patch.deactivatedReason } : {}),
      ...(patch.signingSecret !== undefined ? { signing_secret: patch.signingSecret } : {}),
      updated_at: databaseNow,
    })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/** The server's own deactivation (a receiver answered 410): records why, so the owner can see it. */
export async function deactivateService(db: Db, id: string, reason: string): Promise<void> {
  await db
    .updateTable('notification_services')
    .set({ is_active: false, deactivated_reason: reason, updated_at: databaseNow })
    .where('id', '=', id)
    .execute();
}

/** The server's own removal of a service gone for good (an expired push subscription). */
export async function removeService(db: Db, id: string): Promise<void> {
  await db.deleteFrom('notification_services').where('id', '=', id).execute();
}

export async function deleteOwnedService(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('notification_services')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
