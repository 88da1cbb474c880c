import type { Answer } from '../alerts/fixtures.ts';
import type { TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';

/** A REST call as `user`: the status, the answer's `data` and the raw response. */
export async function callAs<T>(
  t: TestApp,
  user: TestUser,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const res = await t.request({ method, url: `/api${url}`, token: user.token, body });
  return { status: res.statusCode, data: res.body ? (res.json<Answer<T>>().data as T) : undefined, res };
}
