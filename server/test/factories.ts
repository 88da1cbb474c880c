import { randomBytes } from 'node:crypto';
import type { AuthResult } from '@resort/shared';
import type { TestApp } from './helpers/app.ts';

export const STRONG_PASSWORD = 'Sunshine2Castle';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  password: string;
  refreshCookie: string | undefined;
}

export function uniqueEmail(prefix = 'planner'): string {
  return `${prefix}.${randomBytes(5).toString('hex')}@example.com`;
}

/** Registers a user over REST; `role` promotes it in the database and signs in again for fresh claims. */
export async function createUser(
  t: TestApp,
  options: { role?: 'user' | 'admin' | 'super_admin'; email?: string; name?: string } = {},
): Promise<TestUser> {
  const email = options.email ?? uniqueEmail(options.role ?? 'user');
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/register',
    body: { name: options.name ?? 'Test Planner', email, password: STRONG_PASSWORD },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const data = res.json<{ data: AuthResult }>().data;
  const role = options.role ?? 'user';
  // The first account of an instance becomes super_admin; tests pin the role they asked for.
  const roles = role === 'user' ? ['user'] : ['user', role];
  await t.db.updateTable('users').set({ roles }).where('id', '=', data.user.id).execute();
  const login = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    body: { email, password: STRONG_PASSWORD },
  });
  const token = login.json<{ data: AuthResult }>().data.tokens.accessToken;
  const cookie = login.cookies.find((c) => c.name === 'ra_refresh')?.value;
  return { id: data.user.id, email, token, password: STRONG_PASSWORD, refreshCookie: cookie };
}
