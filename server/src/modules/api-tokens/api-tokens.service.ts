import { createHash, randomBytes } from 'node:crypto';
import {
  API_TOKEN_DISPLAY_LENGTH,
  API_TOKEN_MAX_PER_USER,
  API_TOKEN_PREFIX,
  type ApiToken,
  apiTokenMessages,
  type CreateApiTokenInput,
  type CreatedApiToken,
  type Role,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { RateLimiterFactory } from '../../platform/rate-limiter.ts';
import type { AuthClaims } from '../../platform/trpc/context.ts';
import * as repo from './api-tokens.repo.ts';

/** What other modules may do to an account's tokens inside their own transaction. */
export { revokeAllApiTokens } from './api-tokens.repo.ts';

/** SHA-256 is enough at rest: a token is 256 random bits, so there is nothing to guess or crack. */
const hashApiToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** last_used_at is written at most this often per token, so a busy script does not write per call. */
const LAST_USED_RESOLUTION_MS = 60_000;

type ApiTokenVerification =
  | { ok: true; claims: AuthClaims }
  | { ok: false; reason: string; retryAfterSeconds?: number };

type ListedRow = Awaited<ReturnType<typeof repo.listApiTokens>>[number];
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toApiToken(row: ListedRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    displayPrefix: row.display_prefix,
    expiresAt: iso(row.expires_at),
    createdAt: row.created_at.toISOString(),
    lastUsedAt: iso(row.last_used_at),
  };
}

export function createApiTokenService(deps: {
  db: Database;
  clock: Clock;
  ratePerMinute: number;
  rateLimits: RateLimiterFactory;
}) {
  const { db, clock } = deps;
  // Shared by every app process (PostgreSQL), like every other limit.
  const limiter = deps.rateLimits({ name: 'api-token', points: deps.ratePerMinute, windowSeconds: 60 });

  return {
    /** The token in full is in this answer only; the database keeps its hash. */
    async create(userId: string, input: CreateApiTokenInput): Promise<CreatedApiToken> {
      const now = clock.now();
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= now.getTime()) {
        throw new AppError('BAD_REQUEST', apiTokenMessages.expiryInPast, {
          issues: [{ path: 'expiresAt', message: apiTokenMessages.expiryInPast }],
        });
      }
      if ((await repo.countLiveApiTokens(db, userId, now)) >= API_TOKEN_MAX_PER_USER) {
        throw new AppError('CONFLICT', apiTokenMessages.tooMany);
      }
      const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = await repo.insertApiToken(db, {
        user_id: userId,
        name: input.name,
        scope: input.scope,
        token_hash: hashApiToken(token),
        display_prefix: token.slice(0, API_TOKEN_DISPLAY_LENGTH),
        expires_at: expiresAt,
        created_at: now,
      });
      return { token, apiToken: toApiToken(row) };
    },

    async list(userId: string): Promise<ApiToken[]> {
      return (await repo.listApiTokens(db, userId)).map(toApiToken);
    },

    async revoke(userId: string, id: string): Promise<void> {
      if (!(await repo.revokeApiToken(db, userId, id, clock.now()))) {
        throw new AppError('NOT_FOUND', apiTokenMessages.notFound);
      }
    },

    /**
     * Checks a presented token on every request (a revoked or expired one fails at once), counts it
     * against its rate limit, and notes when it was last used.
     */
    async verify(token: string): Promise<ApiTokenVerification> {
      const row = await repo.findApiTokenByHash(db, hashApiToken(token));
      if (!row) return { ok: false, reason: apiTokenMessages.invalid };
      const now = clock.now();
      if (row.revoked_at) return { ok: false, reason: apiTokenMessages.revoked };
      if (row.expires_at && row.expires_at.getTime() <= now.getTime())
        return { ok: false, reason: apiTokenMessages.expired };
      const taken = await limiter.take(row.id);
      if ('retryAfterSeconds' in taken)
        return {
          ok: false,
          reason: apiTokenMessages.rateLimited,
          retryAfterSeconds: taken.retryAfterSeconds,
        };
      if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
        await repo.touchApiToken(db, row.id, now);
      }
      return {
        ok: true,
        claims: {
          userId: row.user_id,
          roles: row.roles as Role[],
          apiToken: { id: row.id, scope: row.scope },
        },
      };
    },
  };
}
