import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type AuthResult,
  authMessages,
  type ChangePasswordInput,
  type LoginInput,
  type RegisterInput,
} from '@resort/shared';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { UserRow } from '../../db/types.ts';
import { AppError, isUniqueViolation } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { createRateLimiter } from '../../lib/rate-limiter.ts';
import { ensurePrimaryEmailService } from '../notification-services/primary-email.ts';
import { toUser } from '../users/users.mapper.ts';
import { countUsers, findUserByEmail, findUserById, insertUser, updateUser } from '../users/users.repo.ts';
import { dummyVerify, hashPassword, verifyPassword } from './passwords.ts';
import * as sessions from './sessions.repo.ts';
import type { TokenService } from './tokens.ts';

export const REFRESH_COOKIE = 'ra_refresh';
export const REFRESH_COOKIE_PATH = '/';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export interface ClientInfo {
  ip: string;
  userAgent?: string | undefined;
}

export interface IssuedSession extends AuthResult {
  refreshToken: string;
  refreshMaxAgeSeconds: number;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export function createAuthService(deps: {
  db: Database;
  tokens: TokenService;
  clock: Clock;
  log: { warn(obj: object, msg: string): void };
  config: Pick<
    Config,
    'FIRST_USER_SUPER_ADMIN' | 'REFRESH_IDLE_DAYS' | 'REFRESH_ABSOLUTE_DAYS' | 'LOGIN_RATE_LIMIT_PER_HOUR'
  >;
}) {
  const { db, tokens, clock, config } = deps;
  // ASVS V2.2.1: at most 100 failed attempts an hour per account; we lock much earlier, per window.
  const accountFailures = createRateLimiter({ limit: 10, windowMs: FIFTEEN_MINUTES });
  const accountHourly = createRateLimiter({ limit: config.LOGIN_RATE_LIMIT_PER_HOUR, windowMs: HOUR });
  const ipAttempts = createRateLimiter({ limit: 100, windowMs: FIFTEEN_MINUTES });
  const ipRegistrations = createRateLimiter({ limit: 30, windowMs: HOUR });

  function refuseIfLimited(...checks: [ReturnType<typeof createRateLimiter>, string][]) {
    for (const [limiter, key] of checks) {
      const wait = limiter.retryAfterSeconds(key);
      if (wait > 0)
        throw new AppError('TOO_MANY_REQUESTS', authMessages.tooManyAttempts, { retryAfterSeconds: wait });
    }
  }

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
      // SPEC.md §2: failures of this step are silently ignored (logged, never surfaced).
      deps.log.warn({ err: error, userId }, 'could not add the primary e-mail notification service');
    }
  }

  return {
    async register(input: RegisterInput, client: ClientInfo): Promise<IssuedSession> {
      refuseIfLimited([ipRegistrations, client.ip]);
      ipRegistrations.hit(client.ip);
      const passwordHash = await hashPassword(input.password);
      let user: UserRow;
      try {
        user = await db.transaction().execute(async (trx) => {
          // Serialise the "first account" decision so two simultaneous sign-ups cannot both win it.
          await sql`SELECT pg_advisory_xact_lock(hashtext('resort-alerts:first-user'))`.execute(trx);
          const first = config.FIRST_USER_SUPER_ADMIN && (await countUsers(trx)) === 0;
          return insertUser(trx, {
            email: input.email,
            name: input.name,
            password_hash: passwordHash,
            roles: first ? ['user', 'super_admin'] : ['user'],
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', authMessages.emailTaken);
        throw error;
      }
      await addPrimaryEmail(user.id, user.email);
      const session = await issueSession(user, client);
      return { ...session, user: toUser(user) };
    },

    async login(input: LoginInput, client: ClientInfo): Promise<IssuedSession> {
      const account = input.email.toLowerCase();
      refuseIfLimited([accountFailures, account], [accountHourly, account], [ipAttempts, client.ip]);
      ipAttempts.hit(client.ip);
      const user = await findUserByEmail(db, input.email);
      const valid = user
        ? await verifyPassword(user.password_hash, input.password)
        : await dummyVerify(input.password);
      if (!user || !valid) {
        const failures = accountFailures.hit(account);
        accountHourly.hit(account);
        // Repeated failures slow down before they lock out.
        if (failures > 3) await sleep(Math.min(1000, (failures - 3) * 150));
        throw new AppError('UNAUTHORIZED', authMessages.invalidCredentials);
      }
      accountFailures.reset(account);
      await addPrimaryEmail(user.id, user.email);
      const session = await issueSession(user, client);
      return { ...session, user: toUser(user) };
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
      if (!user) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
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
    ): Promise<void> {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError('UNAUTHORIZED', authMessages.sessionExpired);
      if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
        throw new AppError('BAD_REQUEST', authMessages.currentPasswordWrong);
      }
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
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
