import { createHash, randomBytes } from 'node:crypto';
import {
  type AuthOptions,
  accountMessages,
  type CreatedInvitation,
  type CreateInvitationInput,
  type Invitation,
  type InvitationLookup,
  type IssuedLink,
  type ResetPasswordInput,
} from '@resort/shared';
import type { Transaction } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { type RateLimiterFactory, reserveAll } from '../../platform/rate-limiter.ts';
import { revokeAllApiTokens } from '../api-tokens/api-tokens.service.ts';
import { syncAccountEmailChannels } from '../notification-services/primary-email.ts';
import { findUserByEmail, findUserById, signupPolicy, updateUser } from '../users/users.service.ts';
import { type AccountMailer, appLink } from './account-mail.ts';
import * as links from './links.repo.ts';
import { hashPassword } from './passwords.ts';
import { revokeUserSessions } from './sessions.repo.ts';

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;
/** Reset requests: per client address, and per e-mail address asked for (whether an account has it or not). */
const RESETS_PER_HOUR_PER_CLIENT = 20;
const RESETS_PER_HOUR_PER_EMAIL = 5;
const INVITATIONS_LISTED = 200;

const newToken = () => randomBytes(32).toString('base64url');
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The fragment keeps the token out of every server's access log (browsers never send it). */
export const invitationPath = (token: string) => `/register#invitation=${token}`;
export const resetPath = (token: string) => `/reset-password#token=${token}`;

/**
 * Signs an account out everywhere: refresh sessions and API tokens revoked, access tokens issued
 * before `at` refused (tokens_valid_after), all in the caller's transaction.
 */
export async function revokeCredentials(trx: Transaction<DB>, userId: string, at: Date): Promise<void> {
  await revokeUserSessions(trx, userId, at);
  await revokeAllApiTokens(trx, userId, at);
  // Compared with the access token's issue time, which is the system's (tokens.ts), not the clock's.
  await updateUser(trx, userId, { tokens_valid_after: new Date() });
}

function invitationStatus(
  row: { used_at: Date | null; revoked_at: Date | null; expires_at: Date },
  now: Date,
) {
  if (row.used_at) return 'used' as const;
  if (row.revoked_at) return 'revoked' as const;
  return row.expires_at <= now ? ('expired' as const) : ('pending' as const);
}

/** Invitations, password resets, and what the sign-in page may offer (docs/product.md, "Roles and permissions"). */
export function createRecoveryService(deps: {
  db: Database;
  clock: Clock;
  mailer: AccountMailer;
  config: Pick<
    Config,
    'PUBLIC_URL' | 'SIGNUP_POLICY' | 'INVITATION_TTL_HOURS' | 'PASSWORD_RESET_TTL_MINUTES'
  >;
  rateLimits: RateLimiterFactory;
  /** The users service's forgetting of a remembered account, once its change has committed. */
  forgetAccount: (userId: string) => void;
}) {
  const { db, clock, mailer, config } = deps;
  const perClient = deps.rateLimits({
    name: 'reset-client',
    points: RESETS_PER_HOUR_PER_CLIENT,
    windowSeconds: 60 * 60,
  });
  const perEmail = deps.rateLimits({
    name: 'reset-email',
    points: RESETS_PER_HOUR_PER_EMAIL,
    windowSeconds: 60 * 60,
  });

  async function newResetLink(userId: string, emailed: boolean) {
    const token = newToken();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + config.PASSWORD_RESET_TTL_MINUTES * MINUTE);
    await db.transaction().execute(async (trx) => {
      await links.retirePasswordResets(trx, userId, now);
      await links.insertPasswordReset(trx, { userId, tokenHash: hashLinkToken(token), expiresAt, emailed });
    });
    return { url: appLink(config.PUBLIC_URL, resetPath(token)), expiresAt };
  }

  return {
    async options(): Promise<AuthOptions> {
      return {
        signupPolicy: await signupPolicy(db, config.SIGNUP_POLICY),
        passwordResetByEmail: mailer.available,
      };
    },

    /**
     * Always the same answer, whether an account has the address or not; the e-mail goes out after
     * the answer, so its time does not tell either.
     */
    async forgotPassword(email: string, clientIp: string): Promise<{ message: string }> {
      // Says what the sign-in page says (auth options), whoever asks: nothing about accounts.
      if (!mailer.available) return { message: accountMessages.resetByEmailUnavailable };
      await reserveAll(
        [
          [perClient, clientIp],
          [perEmail, email.toLowerCase()],
        ],
        accountMessages.tooManyResets,
      );
      void (async () => {
        const user = await findUserByEmail(db, email);
        if (!user || user.disabled_at) return;
        const link = await newResetLink(user.id, true);
        await mailer.send({
          to: user.email,
          subject: 'Resort Alerts: reset your password',
          text: [
            'Someone asked to reset the password of your Resort Alerts account.',
            '',
            `Open this link to choose a new password (it works once, until ${link.expiresAt.toUTCString()}):`,
            link.url,
            '',
            'If it was not you, ignore this e-mail: your password stays as it is.',
            '',
          ].join('\n'),
        });
      })().catch(() => undefined);
      return { message: accountMessages.resetLinkSent };
    },

    /** A link an administrator hands over (no e-mail needed). */
    async issueResetLink(userId: string): Promise<IssuedLink> {
      const user = await findUserById(db, userId);
      if (!user) throw new AppError('NOT_FOUND', accountMessages.userNotFound);
      const link = await newResetLink(user.id, false);
      return { url: link.url, expiresAt: link.expiresAt.toISOString() };
    },

    /** Sets the new password and signs the account out everywhere. */
    async resetPassword(input: ResetPasswordInput): Promise<void> {
      const passwordHash = await hashPassword(input.password);
      const now = clock.now();
      const userId = await db.transaction().execute(async (trx) => {
        const reset = await links.consumePasswordReset(trx, hashLinkToken(input.token), now);
        if (!reset) throw new AppError('BAD_REQUEST', accountMessages.resetLinkInvalid);
        await updateUser(trx, reset.user_id, {
          password_hash: passwordHash,
          // An e-mailed link was opened from the account's mailbox: its address is verified.
          ...(reset.emailed ? { email_verified_at: now } : {}),
        });
        if (reset.emailed) await syncAccountEmailChannels(trx, reset.user_id);
        await links.retirePasswordResets(trx, reset.user_id, now);
        await revokeCredentials(trx, reset.user_id, now);
        return reset.user_id;
      });
      deps.forgetAccount(userId);
    },

    async createInvitation(
      actor: { id: string; roles: readonly string[] },
      input: CreateInvitationInput,
    ): Promise<CreatedInvitation> {
      const role = input.role ?? 'user';
      if (role === 'admin' && !actor.roles.includes('super_admin'))
        throw new AppError('FORBIDDEN', accountMessages.onlySuperAdminGrants);
      const token = newToken();
      const now = clock.now();
      const row = await links.insertInvitation(db, {
        tokenHash: hashLinkToken(token),
        role,
        email: input.email || null,
        createdBy: actor.id,
        expiresAt: new Date(now.getTime() + config.INVITATION_TTL_HOURS * HOUR),
      });
      const url = appLink(config.PUBLIC_URL, invitationPath(token));
      const emailed = row.email
        ? await mailer.send({
            to: row.email,
            subject: 'Resort Alerts: you are invited',
            text: [
              `You are invited to Resort Alerts${role === 'admin' ? ' as an administrator' : ''}.`,
              '',
              `Open this link to create your account (it works once, until ${row.expires_at.toUTCString()}):`,
              url,
              '',
            ].join('\n'),
          })
        : false;
      return { ...toInvitation(row, now), url, emailed };
    },

    async listInvitations(): Promise<Invitation[]> {
      const now = clock.now();
      return (await links.listInvitations(db, INVITATIONS_LISTED)).map((r) => toInvitation(r, now));
    },

    async revokeInvitation(id: string): Promise<void> {
      if (!(await links.revokeInvitation(db, id, clock.now())))
        throw new AppError('NOT_FOUND', accountMessages.invitationNotFound);
    },

    async lookupInvitation(token: string): Promise<InvitationLookup> {
      const row = await links.findUsableInvitation(db, hashLinkToken(token), clock.now(), false);
      if (!row) throw new AppError('BAD_REQUEST', accountMessages.invitationInvalid);
      return { role: row.role, email: row.email, expiresAt: row.expires_at.toISOString() };
    },
  };
}

function toInvitation(
  row: {
    id: string;
    role: 'user' | 'admin';
    email: string | null;
    created_at: Date;
    expires_at: Date;
    used_at: Date | null;
    revoked_at: Date | null;
  },
  now: Date,
): Invitation {
  return {
    id: row.id,
    role: row.role,
    email: row.email,
    status: invitationStatus(row, now),
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    usedAt: row.used_at?.toISOString() ?? null,
  };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;
