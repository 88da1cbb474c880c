import type {
  AccountExport,
  NotificationPreferences,
  Profile,
  UpdateProfileInput,
  User,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { type AccountState, createAccountCache } from './account-cache.ts';
import { exportAccountRows } from './accounts.repo.ts';
import { toPreferences, toProfile, toUser } from './users.mapper.ts';
import { findAccountState, findUserById, listAdminIds, updateUser } from './users.repo.ts';

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

/**
 * The roles of an account that may act now: none when it is gone or disabled, or when the
 * presented access token was issued before its tokens were revoked (`issuedAtMs`).
 */
export function rolesIfActive(state: AccountState | undefined, issuedAtMs?: number): string[] | undefined {
  if (!state || state.disabled) return undefined;
  if (issuedAtMs !== undefined && state.tokensValidAfterMs !== null && issuedAtMs < state.tokensValidAfterMs)
    return undefined;
  return state.roles;
}

export function createUserService(deps: {
  db: Database;
  listNotificationServices: (userId: string) => Promise<unknown[]>;
  listAlerts: (userId: string) => Promise<unknown[]>;
  /** For the account cache's LISTEN connection; without it every lookup reads the database. */
  databaseUrl: string | null;
  log: Logger;
}) {
  const { db } = deps;
  const accounts = createAccountCache({
    read: (userId) => findAccountState(db, userId),
    databaseUrl: deps.databaseUrl,
    log: deps.log,
  });

  async function requireUser(userId: string) {
    const row = await findUserById(db, userId);
    // A valid token for a deleted account is no account.
    if (!row) throw new AppError('UNAUTHORIZED', 'Account not found.');
    return row;
  }

  return {
    /** The roles of an account allowed to act now (remembered per process, see account-cache.ts). */
    findRoles: async (userId: string, issuedAtMs?: number) =>
      rolesIfActive(await accounts.find(userId), issuedAtMs),

    /** After this process changed an account's roles, state or tokens: its next request sees it. */
    forgetAccount: (userId: string) => accounts.forget(userId),

    /** Stops listening for account changes (the HTTP app closing). */
    close: () => accounts.close(),

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
