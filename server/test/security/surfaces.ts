import type { LightMyRequestResponse } from 'fastify';
import type { RestRoute } from '../../src/http/rest.ts';
import type { TestApp } from '../helpers/app.ts';
import { procedureType } from '../helpers/routes.ts';

/** One call of a procedure: its input and, where the procedure reads it, the refresh cookie. */
export interface CallPlan {
  input?: unknown;
  refreshCookie?: string | undefined;
  /**
   * A signed-in caller's token replaced by this one: a procedure that ends the caller's own account
   * runs as a fresh account of the same role, so the matrix's accounts live on.
   */
  token?: string;
}

export interface Answer {
  status: number;
  /** The error message a refused call carries (REST `message`, tRPC `error.message`). */
  message: string | undefined;
  body: unknown;
}

function toAnswer(res: LightMyRequestResponse, surface: 'rest' | 'trpc'): Answer {
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  const message =
    surface === 'rest'
      ? (body as { message?: string } | undefined)?.message
      : (body as { error?: { message?: string } } | undefined)?.error?.message;
  return { status: res.statusCode, message, body };
}

const cookiesOf = (plan: CallPlan): Record<string, string> =>
  plan.refreshCookie ? { ra_refresh: plan.refreshCookie } : {};
const bearer = (token: string | undefined): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {};

/** Calls a procedure the way the SPA does: GET with `?input=` for queries, POST with a JSON body for mutations. */
export async function callTrpc(
  t: TestApp,
  path: string,
  plan: CallPlan,
  token: string | undefined,
): Promise<Answer> {
  const query = procedureType(path) === 'query';
  const hasInput = plan.input !== undefined;
  const res = await t.app.inject({
    method: query ? 'GET' : 'POST',
    url:
      query && hasInput
        ? `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(plan.input))}`
        : `/trpc/${path}`,
    // The tRPC client always labels a mutation as JSON, with or without an input.
    headers: { ...bearer(token), ...(query ? {} : { 'content-type': 'application/json' }) },
    cookies: cookiesOf(plan),
    ...(!query && hasInput ? { payload: JSON.stringify(plan.input) } : {}),
  });
  return toAnswer(res, 'trpc');
}

/**
 * Calls a REST row the way an integrator does: path parameters taken from the input, the rest of the
 * input as the query string (GET, DELETE) or the JSON body.
 */
export async function callRest(
  t: TestApp,
  route: RestRoute,
  plan: CallPlan,
  token: string | undefined,
): Promise<Answer> {
  const rest: Record<string, unknown> =
    plan.input && typeof plan.input === 'object' ? { ...(plan.input as Record<string, unknown>) } : {};
  const url = route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? '00000000-0000-4000-8000-000000000000'));
  });
  const inQuery = route.method === 'GET' || route.method === 'DELETE';
  const search = new URLSearchParams();
  if (inQuery) for (const [k, v] of Object.entries(rest)) search.set(k, String(v));
  const qs = search.toString();
  const withBody = !inQuery && Object.keys(rest).length > 0;
  const res = await t.app.inject({
    method: route.method,
    url: `/api${url}${qs ? `?${qs}` : ''}`,
    headers: { ...bearer(token), ...(withBody ? { 'content-type': 'application/json' } : {}) },
    cookies: cookiesOf(plan),
    ...(withBody ? { payload: JSON.stringify(rest) } : {}),
  });
  return toAnswer(res, 'rest');
}
