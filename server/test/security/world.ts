import { createUser, STRONG_PASSWORD, type TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';

/** The accounts of the authorization matrix, plus an administrator outside it who sets up shared things. */
export interface World {
  t: TestApp;
  user: TestUser;
  otherUser: TestUser;
  admin: TestUser;
  superAdmin: TestUser;
  setup: TestUser;
  /** A REST call that must succeed (fixtures are built through the same API integrators use). */
  api<T = unknown>(
    who: TestUser,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<T>;
  /** A fresh refresh session of `who`, as its cookie value. */
  freshSession(who: TestUser): Promise<string>;
  /** A counter for unique names within the run. */
  next(): number;
}

export async function createWorld(t: TestApp): Promise<World> {
  const [user, otherUser, admin, superAdmin, setup] = [
    await createUser(t, { name: 'Matrix User' }),
    await createUser(t, { name: 'Matrix Other' }),
    await createUser(t, { role: 'admin' }),
    await createUser(t, { role: 'super_admin' }),
    await createUser(t, { role: 'super_admin' }),
  ];
  let counter = 0;
  return {
    t,
    user,
    otherUser,
    admin,
    superAdmin,
    setup,
    async api<T>(who: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
      const res = await t.request({ method, url, token: who.token, body });
      if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${res.statusCode} ${res.body}`);
      return (res.body ? res.json<{ data: T }>().data : undefined) as T;
    },
    async freshSession(who: TestUser) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: who.email, password: STRONG_PASSWORD },
      });
      const cookie = res.cookies.find((c) => c.name === 'ra_refresh')?.value;
      if (!cookie) throw new Error(`fixture login failed: ${res.statusCode} ${res.body}`);
      return cookie;
    },
    next: () => ++counter,
  };
}
