import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type AuthResult,
  accountMessages,
  authMessages,
  type ChangePasswordInput,
  type LoginInput,
  type RegisterInput,
} from '@resort/shared';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { UserRow } from '../../db/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, isUniqueViolation } from '../../platform/errors.ts';
import { type RateLimiterFactory, reserveAll } from '../../platform/rate-limiter.ts';
import { ensurePrimaryEmailService } from '../notification-services/primary-email.ts';
import { toUser } from '../users/users.mapper.ts';
import {
  countUsers,
  findUserByEmail,
  findUserById,
  insertUser,
  signupPolicy,
  updateUser,
} from '../users/users.service.ts';
import * as links from './links.repo.ts';
import { createPasswordCheck, type PasswordCheckClient } from './password-check.ts';
import { dummyVerify, hashPassword, verifyPassword } from './passwords.ts';
import { hashLinkToken } from './recovery.service.ts';
import * as sessions from './sessions.repo.ts';
import type { TokenService } from './tokens.ts';

export const REFRESH_COOKIE = 'ra_refresh';
export const REFRESH_COOKIE_PATH = '/';
/** OWASP's device cookie (password-check.ts): a browser that signed in to an account before. */
export const DEVICE_COOKIE = 'ra_device';
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

const DAY = 24 * 60 * 60 * 1000;

interface ClientInfo {
  ip: string;
  userAgent?: string | undefined;
  /** The device cookie presented, if any. */
  device?: string | undefined;
}

export interface IssuedSession extends AuthResult {
  refreshToken: string;
  refreshMaxAgeSeconds: number;
  /** A new device cookie for this browser, when it did not hold one for this account. */
  deviceCookie?: string;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export function createAuthService(deps: {
  db: Database;
  tokens: TokenService;
  clock: Clock;
  log: { warn(obj: object, msg: string): void };
  config: Pick<
    Config,
    | 'FIRST_USER_SUPER_ADMIN'
    | 'REFRESH_IDLE_DAYS'
    | 'REFRESH_ABSOLUTE_DAYS'
    | 'LOGIN_RATE_LIMIT_PER_HOUR'
    | 'REGISTRATIONS_PER_ADDRESS_PER_HOUR'
    | 'SIGNUP_POLICY'
  >;
  rateLimits: RateLimiterFactory;
  /** Deletes an account with its data (the users module's accounts service). */
  removeAccount: (userId: string) => Promise<void>;
}) {
  const { db, tokens, clock, config } = deps;
  const ipRegistrations = deps.rateLimits({
    name: 'register-address',
    points: config.REGISTRATIONS_PER_ADDRESS_PER_HOUR,
    windowSeconds: 60 * 60,
  });
  // ASVS V2.2.1: at most LOGIN_RATE_LIMIT_PER_HOUR failed attempts an hour per account.
  const checkPassword = createPasswordCheck({
    rateLimits: deps.rateLimits,
    perHour: config.LOGIN_RATE_LIMIT_PER_HOUR,
    verifyDevice: tokens.verifyDeviceCookie,
  });
  const passwordClient = (client: ClientInfo): PasswordCheckClient => ({
    ip: client.ip,
    device: client.device,
  });

  async function issueSession(
    user: { id: string; roles: string[] },
    client: ClientInfo,
    family?: { id: string; absoluteExpiresAt: Date },
  ) {
    const now = clock.now();
    const refreshToken = randomBytes(32).toString('base64url');
    const absoluteExpiresAt =
      family?.absoluteExpiresAt ?? new Date(now.getTime() + config.REFRESH_ABSOLUTE_DAYS * DAY);
    const idleExpiresAt = new Date(now.getTime() + config.REFRESH_IDLE_DAYS * DAY);
    const expiresAt = idleExpiresAt < absoluteExpiresAt ? idleExpiresAt : absoluteExpiresAt;
    await sessions.insertSession(db, {
      userId: user.id,
      familyId: family?.id ?? randomUUID(),
      tokenHash: hashToken(refreshToken),
      expiresAt,
      absoluteExpiresAt,
      userAgent: client.userAgent,
      ip: client.ip,
    });
    const access = await tokens.issueAccessToken(user);
    return {
      refreshToken,
      refreshMaxAgeSeconds: Math.max(1, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)),
      tokens: access,
    };
  }

  async function addPrimaryEmail(userId: string, email: string) {
    try {
      await ensurePrimaryEmailService(db, userId, email);
    } catch (error) {
      // docs/product.md, "Screens and routes": failures of this step are silently ignored (logged, never surfaced).
      deps.log.warn({ err: error, userId }, 'could not add the primary e-mail notification service');
    }
  }

  return {
    async register(input: RegisterInput, client: ClientInfo): Promise<IssuedSession> {
      await reserveAll([[ipRegistrations, client.ip]], authMessages.tooManyAttempts);
      const passwordHash = await hashPassword(input.password);
      let user: UserRow;
      try {
        user = await db.transaction().execute(async (trx) => {
          // Serialise the "first account" decision so two simultaneous sign-ups cannot both win it.
          await sql`SELECT pg_advisory_xact_lock(hashtext('resort-alerts:first-user'))`.execute(trx);
          const now = clock.now();
          const first = config.FIRST_USER_SUPER_ADMIN && (await countUsers(trx)) === 0;
          // Locked, so two registrations through one link cannot both use it.
          const invitation = input.invitation
            ? await links.findUsableInvitation(trx, hashLinkToken(input.invitation), now, true)
            : undefined;
          if (input.invitation && !invitation)
            throw new AppError('BAD_REQUEST', accountMessages.invitationInvalid);
          if (invitation?.email && invitation.email.toLowerCase() !== input.email.toLowerCase())
            throw new AppError('BAD_REQUEST', accountMessages.invitationEmailMismatch);
          if (!first && !invitation) {
            const policy = await signupPolicy(trx, config.SIGNUP_POLICY);
            if (policy === 'closed') throw new AppError('FORBIDDEN', accountMessages.signupClosed);
            if (policy === 'invite-only') throw new AppError('FORBIDDEN', accountMessages.signupInviteOnly);
          }
          const created = await insertUser(trx, {
            email: input.email,
            name: input.name,
            password_hash: passwordHash,
            roles: first
              ? ['user', 'super_admin']
              : invitation?.role === 'admin'
                ? ['user', 'admin']
                : ['user'],
            last_sign_in_at: now,
            // An invitation e-mailed to this address was opened from its mailbox.
            email_verified_at: invitation?.email ? now : null,
          });
          if (invitation) await links.markInvitationUsed(trx, invitation.id, created.id, now);
          return created;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', authMessages.emailTaken);
        throw error;
      }
      await addPrimaryEmail(user.id, user.email);
      const session = await issueSession(user, client);
      return { ...session, user: toUser(user), deviceCookie: tokens.issueDeviceCookie(user.id) };
    },

    async login(input: LoginInput, client: ClientInfo): Promise<IssuedSession> {
      const user = await findUserByEmail(db, input.email);
      const account = user
        ? { key: user.id, userId: user.id }
        : { key: `email:${input.email.toLowerCase()}`, userId: null };
      const { valid, knownDevice } = await checkPassword(account, passwordClient(client), () =>
        user ? verifyPassword(user.password_hash, input.password) : dummyVerify(input.password),
      );
      if (!user || !valid) throw new AppError('UNAUTHORIZED', authMessages.invalidCredentials);
      // Said only to whoever knows the password: a disabled account is not an oracle for strangers.
      if (user.disabled_at) throw new AppError('FORBIDDEN', accountMessages.accountDisabled);
      await updateUser(db, user.id, { last_sign_in_at: clock.now() });
      await addPrimaryEmail(user.id, user.email);
      const session = await issueSession(user, client);
      return {
        ...session,
        user: toUser(user),
        ...(knownDevice ? {} : { deviceCookie: tokens.issueDeviceCookie(user.id) }),
      };
    },

    /** Rotates the refresh token; presenting an already-rotated token revokes its whole family. */
    async refresh(refreshToken: string | undefined, client: ClientInfo): Promise<IssuedSession> {
      if (!refreshToken) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
      const now = clock.now();
      const outcome = await db.transaction().execute(async (trx) => {
        const session = await sessions.findSessionForUpdate(trx, hashToken(refreshToken));
        if (!session) return { kind: 'unknown' as const };
        if (session.revoked_at) return { kind: 'revoked' as const };
        if (session.used_at) {
          await sessions.revokeFamily(trx, session.family_id, now);
          return { kind: 'reused' as const, userId: session.user_id };
        }
        if (session.expires_at <= now || session.absolute_expires_at <= now)
          return { kind: 'expired' as const };
        await sessions.markSessionUsed(trx, session.id, now);
        return { kind: 'ok' as const, session };
      });
      if (outcome.kind === 'reused') {
        deps.log.warn({ userId: outcome.userId }, 'refresh token reuse detected; session family revoked');
      }
      if (outcome.kind !== 'ok') throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
      const user = await findUserById(db, outcome.session.user_id);
      if (!user || user.disabled_at) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
      const issued = await issueSession(user, client, {
        id: outcome.session.family_id,
        absoluteExpiresAt: outcome.session.absolute_expires_at,
      });
      return { ...issued, user: toUser(user) };
    },

    async logout(refreshToken: string | undefined): Promise<void> {
      if (!refreshToken) return;
      const session = await sessions.findSessionByHash(db, hashToken(refreshToken));
      if (session) await sessions.revokeFamily(db, session.family_id, clock.now());
    },

    /** Changes the password and revokes every other session of the account. */
    async changePassword(
      userId: string,
      input: ChangePasswordInput,
      currentRefreshToken: string | undefined,
      client: ClientInfo,
    ): Promise<void> {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
      // The same budget as sign-in: a stolen access token must not become a password oracle.
      const { valid } = await checkPassword({ key: user.id, userId: user.id }, passwordClient(client), () =>
        verifyPassword(user.password_hash, input.currentPassword),
      );
      if (!valid) throw new AppError('BAD_REQUEST', authMessages.currentPasswordWrong);
      const passwordHash = await hashPassword(input.newPassword);
      const keep = currentRefreshToken
        ? await sessions.findSessionByHash(db, hashToken(currentRefreshToken))
        : undefined;
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, userId, { password_hash: passwordHash });
        await sessions.revokeUserSessions(
          trx,
          userId,
          clock.now(),
          keep && keep.user_id === userId ? keep.family_id : undefined,
        );
      });
    },

    /** Deletes the caller's own account after its password, on the sign-in budget. */
    async deleteOwnAccount(userId: string, password: string, ip: string): Promise<void> {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
      const { valid } = await checkPassword(
        { key: user.id, userId: user.id },
        { ip, device: undefined },
        () => verifyPassword(user.password_hash, password),
      );
      if (!valid) throw new AppError('BAD_REQUEST', accountMessages.passwordWrong);
      await deps.removeAccount(userId);
    },
  };
}
