import { isAdminRole, messages } from '@resort/shared';
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import type { Context } from './context.ts';
import { AppError, errorTable } from './errors.ts';

export interface ErrorDetails {
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

/** Who may call a procedure; read by the authorization matrix test and the OpenAPI document. */
export interface ProcedureMeta {
  access: 'public' | 'user' | 'admin';
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
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
export const middleware = t.middleware;

export const publicProcedure = t.procedure.meta({ access: 'public' });

/** Verifies the bearer token (done in the context) and narrows ctx.auth. */
export const authedProcedure = t.procedure.meta({ access: 'user' }).use(({ ctx, next }) => {
  if (!ctx.auth) throw new AppError('UNAUTHORIZED', ctx.authError ?? messages.common.unauthorized);
  return next({ ctx: { ...ctx, auth: ctx.auth } });
});

/**
 * Re-reads the roles from the database instead of trusting the token's claims, so a demoted admin
 * loses access at once rather than when the token expires.
 */
export const adminProcedure = authedProcedure.meta({ access: 'admin' }).use(async ({ ctx, next }) => {
  const roles = await ctx.services.users.findRoles(ctx.auth.userId);
  if (!roles) throw new AppError('UNAUTHORIZED', messages.common.unauthorized);
  if (!isAdminRole(roles)) throw new AppError('FORBIDDEN', messages.common.forbidden);
  return next({ ctx: { ...ctx, auth: { ...ctx.auth, roles } } });
});
