import {
  type AccountLevel,
  type AdminUser,
  type AdminUserDetail,
  accountLevel,
  accountMessages,
  type Role,
  type SignupPolicy,
  type SignupSettings,
} from '@resort/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB, UserRow } from '../../db/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { AlertService } from '../alerts/alerts.service.ts';
import {
  type AccountListRow,
  countOtherSuperAdmins,
  countOwned,
  deleteAccount,
  findAccount,
  listAccountAlerts,
  listAccounts,
  lockSuperAdmins,
  readSetting,
  setDisabled,
  setRoles,
  writeSetting,
} from './accounts.repo.ts';

const SIGNUP_POLICY = 'signup_policy';

/** Revokes every refresh session and API token of an account (auth and api-tokens own them). */
export type RevokeCredentials = (trx: Transaction<DB>, userId: string, at: Date) => Promise<void>;

export function toAdminUser(row: AccountListRow): AdminUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    roles: row.roles as Role[],
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
    alertCount: row.alert_count,
    channelCount: row.channel_count,
    disabled: row.disabled_at !== null,
    emailVerified: row.email_verified_at !== null,
  };
}

const rolesFor = (level: AccountLevel): Role[] =>
  level === 'user' ? ['user'] : level === 'admin' ? ['user', 'admin'] : ['user', 'super_admin'];

export interface Actor {
  id: string;
  roles: readonly string[];
}

/**
 * Disabling or deleting an administrator takes the right to demote one: admins manage planners,
 * a super admin manages everyone.
 */
function assertMayManage(actor: Actor, target: UserRow) {
  if (accountLevel(target.roles) !== 'user' && !actor.roles.includes('super_admin'))
    throw new AppError('FORBIDDEN', accountMessages.onlySuperAdminGrants);
}

/** The signup policy in force: the one a super admin stored, else the configured default. */
export async function currentSignupPolicy(
  db: Database | Transaction<DB>,
  fallback: SignupPolicy,
): Promise<SignupPolicy> {
  return (await readSetting<SignupPolicy>(db, SIGNUP_POLICY)) ?? fallback;
}

/**
 * The Users screen: every account, what it holds, and the admin's actions on it
 * (docs/product.md, "Roles and permissions").
 */
export function createAccountsService(deps: {
  db: Database;
  clock: Clock;
  defaultSignupPolicy: SignupPolicy;
  revokeCredentials: RevokeCredentials;
  /** The alerts service's suspension of an account's alerts, in the caller's transaction. */
  alerts: Pick<AlertService, 'suspendOwned' | 'resumeOwned'>;
  /** Forgets a remembered account once its change has committed (users.service). */
  forgetAccount: (userId: string) => void;
}) {
  const { db, clock } = deps;

  async function require(id: string): Promise<AccountListRow> {
    const row = await findAccount(db, id);
    if (!row) throw new AppError('NOT_FOUND', accountMessages.userNotFound);
    return row;
  }

  /** Throws when `id` is the last enabled super admin (call inside lockSuperAdmins). */
  async function assertNotLastSuperAdmin(trx: Transaction<DB>, row: UserRow) {
    if (!row.roles.includes('super_admin') || row.disabled_at) return;
    if ((await countOtherSuperAdmins(trx, row.id)) === 0)
      throw new AppError('CONFLICT', accountMessages.lastSuperAdmin);
  }

  async function reload(id: string): Promise<AdminUser> {
    return toAdminUser(await require(id));
  }

  return {
    async list(search: string | undefined): Promise<AdminUser[]> {
      return (await listAccounts(db, search || undefined)).map(toAdminUser);
    },

    async get(id: string): Promise<AdminUserDetail> {
      const row = await require(id);
      const [alerts, owned] = await Promise.all([listAccountAlerts(db, id), countOwned(db, id)]);
      return {
        ...toAdminUser(row),
        alerts: alerts.map((a) => ({
          id: a.id,
          title: a.title,
          partyName: a.party_name,
          status: a.status as AdminUserDetail['alerts'][number]['status'],
          templateName: a.template_name,
          createdAt: a.created_at.toISOString(),
        })),
        watchlistCount: owned.watchlists,
        apiTokenCount: owned.apiTokens,
      };
    },

    /**
     * Disabling signs the account out everywhere at once (sessions and API tokens revoked, access
     * tokens refused from now) and stops its alerts; enabling resumes them.
     */
    async setDisabled(actor: Actor, id: string, disabled: boolean): Promise<AdminUser> {
      if (actor.id === id) throw new AppError('BAD_REQUEST', accountMessages.notYourself);
      await db.transaction().execute(async (trx) => {
        await lockSuperAdmins(trx);
        const row = await require(id);
        assertMayManage(actor, row);
        if (disabled && !row.disabled_at) {
          await assertNotLastSuperAdmin(trx, row);
          const now = clock.now();
          await setDisabled(trx, id, now);
          await deps.revokeCredentials(trx, id, now);
          await deps.alerts.suspendOwned(id, trx);
        } else if (!disabled && row.disabled_at) {
          await setDisabled(trx, id, null);
          await deps.alerts.resumeOwned(id, trx);
        }
      });
      deps.forgetAccount(id);
      return reload(id);
    },

    /** Only a super admin changes roles (the router's rung); the last super admin keeps the role. */
    async setLevel(actorId: string, id: string, level: AccountLevel): Promise<AdminUser> {
      if (actorId === id) throw new AppError('BAD_REQUEST', accountMessages.notYourself);
      await db.transaction().execute(async (trx) => {
        await lockSuperAdmins(trx);
        const row = await require(id);
        if (level !== 'super_admin') await assertNotLastSuperAdmin(trx, row);
        await setRoles(trx, id, rolesFor(level));
      });
      deps.forgetAccount(id);
      return reload(id);
    },

    /** Deletes the account and everything it holds. */
    async remove(actor: Actor, id: string): Promise<void> {
      if (actor.id === id) throw new AppError('BAD_REQUEST', accountMessages.notYourself);
      await db.transaction().execute(async (trx) => {
        await lockSuperAdmins(trx);
        const row = await require(id);
        assertMayManage(actor, row);
        await assertNotLastSuperAdmin(trx, row);
        await deleteAccount(trx, id);
      });
      deps.forgetAccount(id);
    },

    /** The caller's own account, after its password was checked (users.service). */
    async removeOwn(userId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockSuperAdmins(trx);
        const row = await require(userId);
        await assertNotLastSuperAdmin(trx, row);
        await deleteAccount(trx, userId);
      });
      deps.forgetAccount(userId);
    },

    /** Throws unless `actor` may act on this account (a reset link for it, say). */
    async assertMayManage(actor: Actor, id: string): Promise<void> {
      assertMayManage(actor, await require(id));
    },

    async signupSettings(): Promise<SignupSettings> {
      return {
        policy: await currentSignupPolicy(db, deps.defaultSignupPolicy),
        defaultPolicy: deps.defaultSignupPolicy,
      };
    },

    async setSignupPolicy(policy: SignupPolicy): Promise<SignupSettings> {
      await writeSetting(db, SIGNUP_POLICY, policy);
      return { policy, defaultPolicy: deps.defaultSignupPolicy };
    },

    signupPolicy: () => currentSignupPolicy(db, deps.defaultSignupPolicy),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
