import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

/**
 * One error table: services throw AppError(code, message); the tRPC formatter and the REST error
 * handler both read this table, so a code means the same status everywhere.
 */
export const errorTable = {
  /** The input broke a rule; the message is the rule's message (docs/product.md, "Validation and messages"). */
  BAD_REQUEST: { trpc: 'BAD_REQUEST', http: 400 },
  /** No token, or a token that is expired, tampered or revoked. */
  UNAUTHORIZED: { trpc: 'UNAUTHORIZED', http: 401 },
  /** Signed in, but the role does not allow it. */
  FORBIDDEN: { trpc: 'FORBIDDEN', http: 403 },
  /** Missing, or not the caller's: the two are indistinguishable on purpose. */
  NOT_FOUND: { trpc: 'NOT_FOUND', http: 404 },
  /** The write collides with existing state (a second EMAIL channel, a taken e-mail). */
  CONFLICT: { trpc: 'CONFLICT', http: 409 },
  PAYLOAD_TOO_LARGE: { trpc: 'PAYLOAD_TOO_LARGE', http: 413 },
  UNPROCESSABLE: { trpc: 'UNPROCESSABLE_CONTENT', http: 422 },
  TOO_MANY_REQUESTS: { trpc: 'TOO_MANY_REQUESTS', http: 429 },
  /** An upstream the server called failed in a way the caller should see. */
  BAD_GATEWAY: { trpc: 'BAD_GATEWAY', http: 502 },
  INTERNAL: { trpc: 'INTERNAL_SERVER_ERROR', http: 500 },
} as const satisfies Record<string, { trpc: TRPC_ERROR_CODE_KEY; http: number }>;

type AppErrorCode = keyof typeof errorTable;

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** Extra facts a client may use (e.g. retryAfterSeconds); never internals. */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: AppErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

/** PostgreSQL unique violation → the caller's conflict, with the message the service chose. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | undefined;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
