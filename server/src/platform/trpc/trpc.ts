import { apiTokenMessages, isAdminRole, messages } from '@resort/shared';
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { AppError, errorTable } from '../errors.ts';
import type { Context } from './context.ts';
import type { RestMeta } from './rest-route.ts';

interface ErrorDetails {
  message: string;
  code: string;
  issues?: { path: string; message: string }[];
  retryAfterSeconds?: number;
}

/**
 * PostgreSQL's class 22 (data exception: a malformed uuid, a value out of range, text it cannot
 * store) is raised by a value the caller sent, so it is the caller's error, not a fault of ours.
 */
function isDataException(error: unknown): boolean {
  const e = error as { code?: unknown; severity?: unknown } | null;
  return typeof e?.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code) && typeof e.severity === 'string';
}

/**
 * A write naming an account deleted after the authenticated rung checked it (a race of milliseconds):
 * the caller's account is gone, which is a 401, not a fault of ours.
 */
function isDeletedAccount(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown } | null;
  return e?.code === '23503' && typeof e.constraint === 'string' && e.constraint.endsWith('_user_id_fkey');
}

/** The one place an error becomes what a client sees: message, code and (for validation) issues. */
export function describeError(error: unknown): { status: number; body: ErrorDetails } {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof ZodError) {
    const issues = cause.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return {
      status: 400,
      body: { message: issues[0]?.message ?? 'Invalid input.', code: 'BAD_REQUEST', issues },
    };
  }
  if (cause instanceof AppError) {
    const body: ErrorDetails = { message: cause.message, code: cause.code };
    if (typeof cause.details?.retryAfterSeconds === 'number')
      body.retryAfterSeconds = cause.details.retryAfterSeconds;
    // Services that validate beyond the input schema (e.g. against a template) list every issue too.
    if (Array.isArray(cause.details?.issues)) body.issues = cause.details.issues as ErrorDetails['issues'];
    return { status: errorTable[cause.code].http, body };
  }
  if (isDeletedAccount(cause)) {
    return { status: 401, body: { message: messages.common.unauthorized, code: 'UNAUTHORIZED' } };
  }
  if (isDataException(cause)) {
    return { status: 400, body: { message: messages.common.invalidValue, code: 'BAD_REQUEST' } };
  }
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') {
    const row = Object.entries(errorTable).find(([, r]) => r.trpc === error.code);
    const code = row?.[0] ?? 'BAD_REQUEST';
    return { status: row?.[1].http ?? 400, body: { message: error.message, code } };
  }
  return { status: 500, body: { message: messages.common.internal, code: 'INTERNAL' } };
}

/**
 * Who may call a procedure (set by the ladder below), and its REST exposure when it has one.
 * Read by the REST table, the OpenAPI document and the authorization matrix test.
 */
export interface ProcedureMeta {
  access?: 'public' | 'user' | 'admin' | 'super_admin';
  /** The procedure's REST route (see rest-route.ts); absent: tRPC only. */
  rest?: RestMeta;
  /** Refused to personal API tokens: the caller must be signed in (token and password management). */
  sessionOnly?: boolean;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // Live events (SSE): a ping keeps proxies from closing a quiet stream and lets the client notice a
    // dead one; a stream ends after 10 minutes and the client reconnects (resuming by event id) with
    // a freshly renewed access token.
    sse: {
      ping: { enabled: true, intervalMs: 10_000 },
      client: { reconnectAfterInactivityMs: 25_000 },
      maxDurationMs: 10 * 60_000,
    },
    errorFormatter({ shape, error }) {
      const { status, body } = describeError(error);
      return {
        ...shape,
        message: body.message,
        data: {
          code: shape.data.code,
          httpStatus: status,
          appCode: body.code,
          issues: body.issues,
          retryAfterSeconds: body.retryAfterSeconds,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.meta({ access: 'public' });

/**
 * Verifies the bearer token (done in the context), checks that its account still exists and may act
 * (not disabled, the token not revoked), and narrows ctx.auth. A valid token outlives a deleted
 * account by up to its 15 minutes: without the check, a write would reach the database and fail on a
 * foreign key. The account's state is remembered per process and forgotten within a second of any
 * change (modules/users/account-cache.ts), so a request reads no account row; the context keeps the
 * answer for the request, so the admin rung asks nothing more. A personal API
 * token reaches what its owner's session reaches, less what its scope leaves out: a read-only token
 * only queries, and no token manages tokens or the password.
 */
export const authedProcedure = t.procedure.meta({ access: 'user' }).use(async ({ ctx, next, type, meta }) => {
  if (!ctx.auth) throw new AppError('UNAUTHORIZED', ctx.authError ?? messages.common.unauthorized);
  if (!(await ctx.findRoles(ctx.auth.userId))) {
    throw new AppError('UNAUTHORIZED', messages.common.unauthorized);
  }
  const apiToken = ctx.auth.apiToken;
  if (apiToken) {
    if (meta?.sessionOnly) throw new AppError('FORBIDDEN', apiTokenMessages.needsSession);
    if (type !== 'query' && apiToken.scope !== 'read-write')
      throw new AppError('FORBIDDEN', apiTokenMessages.readOnly);
  }
  // tRPC merges the override into the context: naming only what changes spares a copy per request.
  return next({ ctx: { auth: ctx.auth } });
});

/**
 * Checks the roles as stored (remembered per process, forgotten within a second of a change) instead
 * of trusting the token's claims, so a demoted admin loses access within a second rather than when
 * the token expires.
 */
export const adminProcedure = authedProcedure.meta({ access: 'admin' }).use(async ({ ctx, next }) => {
  const roles = await ctx.findRoles(ctx.auth.userId);
  if (!roles) throw new AppError('UNAUTHORIZED', messages.common.unauthorized);
  if (!isAdminRole(roles)) throw new AppError('FORBIDDEN', messages.common.forbidden);
  // An admin's token reaches admin routes only with the read-write scope (docs/api.md).
  if (ctx.auth.apiToken && ctx.auth.apiToken.scope !== 'read-write')
    throw new AppError('FORBIDDEN', apiTokenMessages.readOnly);
  return next({ ctx: { auth: { ...ctx.auth, roles } } });
});

/** Granting roles and instance-wide settings: a super admin only, with roles as stored now. */
export const superAdminProcedure = adminProcedure
  .meta({ access: 'super_admin' })
  .use(async ({ ctx, next }) => {
    if (!ctx.auth.roles.includes('super_admin')) throw new AppError('FORBIDDEN', messages.common.forbidden);
    return next();
  });

/** Signed in with a session (not a personal API token): managing tokens, changing the password. */
export const sessionProcedure = authedProcedure.meta({ sessionOnly: true });
