import type { Profile, UpdateProfileInput, User } from '@resort/shared';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { toProfile, toUser } from './users.mapper.ts';
import { findUserById, findUserRoles, updateUser } from './users.repo.ts';

export interface UserSummary {
  user: User;
  notificationServices: unknown[];
  registrations: unknown[];
}

export function createUserService(deps: {
  db: Database;
  listNotificationServices: (userId: string) => Promise<unknown[]>;
  listRegistrations: (userId: string) => Promise<unknown[]>;
}) {
  const { db } = deps;

  async function requireUser(userId: string) {
    const row = await findUserById(db, userId);
    // A valid token for a deleted account is no account.
    if (!row) throw new AppError('UNAUTHORIZED', 'Account not found.');
    return row;
  }

  return {
    findRoles: (userId: string) => findUserRoles(db, userId),

    async me(userId: string): Promise<Profile> {
      return toProfile(await requireUser(userId));
    },

    async summary(userId: string): Promise<UserSummary> {
      const row = await requireUser(userId);
      const [notificationServices, registrations] = await Promise.all([
        deps.listNotificationServices(userId),
        deps.listRegistrations(userId),
      ]);
      return { user: toUser(row), notificationServices, registrations };
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

export type UserService = ReturnType<typeof createUserService>;
