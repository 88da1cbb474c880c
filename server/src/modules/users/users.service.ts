import type {
  AccountExport,
  NotificationPreferences,
  Profile,
  UpdateProfileInput,
  User,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { exportAccountRows } from './accounts.repo.ts';
import { toPreferences, toProfile, toUser } from './users.mapper.ts';
import { findUserById, findUserRoles, listAdminIds, updateUser } from './users.repo.ts';

export { currentSignupPolicy as signupPolicy } from './accounts.service.ts';
/**
 * The account rows other modules may read and write (auth signs in and registers against them),
 * taking the caller's transaction: the users module's public data surface, so no module reaches
 * into users.repo.ts directly.
 */
export { countUsers, findUserByEmail, findUserById, insertUser, updateUser } from './users.repo.ts';

export interface UserSummary {
  user: User;
  notificationServices: unknown[];
  registrations: unknown[];
}

export function createUserService(deps: {
  db: Database;
  listNotificationServices: (userId: string) => Promise<unknown[]>;
  listAlerts: (userId: string) => Promise<unknown[]>;
}) {
  const { db } = deps;

  async function requireUser(userId: string) {
    const row = await findUserById(db, userId);
    // A valid token for a deleted account is no account.
    if (!row) throw new AppError('UNAUTHORIZED', 'Account not found.');
    return row;
  }

  return {
    findRoles: (userId: string, issuedAtMs?: number) => findUserRoles(db, userId, issuedAtMs),

    async me(userId: string): Promise<Profile> {
      return toProfile(await requireUser(userId));
    },

    async summary(userId: string): Promise<UserSummary> {
      const row = await requireUser(userId);
      const [notificationServices, alerts] = await Promise.all([
        deps.listNotificationServices(userId),
        deps.listAlerts(userId),
      ]);
      return { user: toUser(row), notificationServices, registrations: alerts };
    },

    /** The account's data as JSON, for the owner to keep or take elsewhere. */
    async exportData(userId: string): Promise<AccountExport> {
      const row = await requireUser(userId);
      const rows = await exportAccountRows(db, userId);
      // Dates become ISO strings, as in every other answer.
      const plain = (list: object[]) => JSON.parse(JSON.stringify(list)) as Record<string, unknown>[];
      return {
        exportedAt: new Date().toISOString(),
        account: toProfile(row),
        alerts: plain(rows.alerts),
        channels: plain(rows.channels),
        watchlists: plain(rows.watchlists),
        notifications: plain(rows.notifications),
        apiTokens: plain(rows.apiTokens),
      };
    },

    /**
     * Push, e-mail, SMS and health-notice toggles of Settings; e-mail and SMS pick new alerts' default
     * channels; health notices say when an alert cannot see (docs/product.md, "Alert health").
     */
    /** The enabled admins, told when most alerts of a template fail. */
    adminIds: () => listAdminIds(db),

    preferences: async (userId: string): Promise<NotificationPreferences> =>
      toPreferences(await requireUser(userId)),

    async updatePreferences(
      userId: string,
      input: Partial<NotificationPreferences>,
    ): Promise<NotificationPreferences> {
      await requireUser(userId);
      const row = await updateUser(db, userId, {
        notify_push: input.push,
        notify_email: input.email,
        notify_sms: input.sms,
        health_notices: input.healthNotices,
      });
      if (!row) throw new AppError('UNAUTHORIZED', 'Account not found.');
      return toPreferences(row);
    },

    async updateProfile(userId: string, input: UpdateProfileInput): Promise<Profile> {
      await requireUser(userId);
      const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v ? v : null);
      const row = await updateUser(db, userId, {
        name: input.name,
        display_name: blankToNull(input.displayName),
        headline: blankToNull(input.headline),
        bio: blankToNull(input.bio),
        backup_email: blankToNull(input.backupEmail),
        mobile_number: blankToNull(input.mobileNumber),
      });
      if (!row) throw new AppError('UNAUTHORIZED', 'Account not found.');
      return toProfile(row);
    },
  };
}
