import { messages } from '@resort/shared';
import { TRPCClientError } from '@trpc/client';

/** An HTTP error whose body was not the API's JSON (a proxy's HTML page, a plain-text 502). */
export class HttpError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
  }
}

/**
 * fetch for the tRPC link. JSON answers (success or error) go to tRPC untouched; a failed answer that
 * is not JSON becomes an HttpError carrying the response text, or 'Request failed with {status}' when
 * the body is empty (docs/product.md, "Errors").
 */
export async function fetchWithErrorText(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok) return response;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) return response;
  const text = (await response.text()).trim();
  throw new HttpError(response.status, text || messages.common.requestFailed(response.status));
}

/**
 * The message a screen shows for a failed call: the API's message, else the non-JSON response text
 * or 'Request failed with {status}', else the screen's fallback. A call that never reached the server
 * (offline, aborted) has no message of its own, so it shows the fallback.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError) {
    if (error.cause instanceof HttpError) return error.cause.message;
    if (error.shape && typeof error.message === 'string' && error.message.trim()) return error.message;
    return fallback;
  }
  if (error instanceof HttpError) return error.message;
  return fallback;
}

/** The HTTP status of a failed call when the server answered, else null. */
export function errorStatus(error: unknown): number | null {
  if (error instanceof TRPCClientError) {
    if (error.cause instanceof HttpError) return error.cause.status;
    const status = (error.data as { httpStatus?: unknown } | null | undefined)?.httpStatus;
    return typeof status === 'number' ? status : null;
  }
  return error instanceof HttpError ? error.status : null;
}
