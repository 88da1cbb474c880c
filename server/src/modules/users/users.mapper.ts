import type { NotificationPreferences, Profile, Role, User } from '@resort/shared';
import type { UserRow } from '../../db/types.ts';

export function toUser(row: UserRow): User {
  return { id: row.id, name: row.name, email: row.email, roles: row.roles as Role[] };
}

export function toProfile(row: UserRow): Profile {
  return {
    ...toUser(row),
    displayName: row.display_name,
    headline: row.headline,
    bio: row.bio,
    backupEmail: row.backup_email,
    mobileNumber: row.mobile_number,
    createdAt: row.created_at.toISOString(),
  };
}

export function toPreferences(row: UserRow): NotificationPreferences {
  return {
    push: row.notify_push,
    email: row.notify_email,
    sms: row.notify_sms,
    healthNotices: row.health_notices,
  };
}
