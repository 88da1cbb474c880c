import type { Database } from '../../db/database.ts';
import type { NotificationServiceRow } from '../../db/types.ts';

export function toNotificationService(row: NotificationServiceRow) {
  return {
    id: row.id,
    type: row.type,
    label: row.label,
    isActive: row.is_active,
    config: row.config,
    signingSecret: row.signing_secret,
    deactivatedReason: row.deactivated_reason,
    createdAt: row.created_at.toISOString(),
  };
}

export async function listNotificationServicesForUser(db: Database, userId: string) {
  const rows = await db
    .selectFrom('notification_services')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return rows.map(toNotificationService);
}
