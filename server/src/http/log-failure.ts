import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../platform/errors.ts';

/**
 * Logs a failed request or procedure by what caused it. A fault of ours (an unexpected error) is an
 * error with its stack. A foreseen failure a user can cause at will (a receiver or upstream they named
 * failing: an AppError, however it maps to a status) is a warning with its code and message only, so a
 * user cannot fill the error log with stack traces. Client errors (4xx) are not logged.
 */
export function logFailure(
  log: FastifyBaseLogger,
  error: unknown,
  status: number,
  context: Record<string, unknown> = {},
): void {
  if (status < 500) return;
  const cause = (error as { cause?: unknown } | null)?.cause;
  const known = error instanceof AppError ? error : cause instanceof AppError ? cause : null;
  if (known) log.warn({ ...context, status, code: known.code, reason: known.message }, 'request failed');
  else log.error({ ...context, err: error }, 'request failed');
}
