import { type AdminUser, type AdminUserDetail, accountMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertOk, insertTemplate } from '../alerts/fixtures.ts';
import { createUser, STRONG_PASSWORD, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/** The Users screen's API: who may do what, and what each action does to the account. */
let t: TestApp;
let admin: TestUser;
let superAdmin: TestUser;
let templateId: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
  superAdmin = await createUser(t, { role: 'super_admin' });
  templateId = await insertTemplate(t);
});
afterAll(() => t.close());

const call = (
  who: TestUser | undefined,
  method: 'GET' | 'PUT' | 'DELETE' | 'POST',
  url: string,
  body?: unknown,
) => t.request({ method, url, token: who?.token, body });

async function apiToken(user: TestUser): Promise<string> {
  const res = await call(user, 'POST', '/api/users/me/api-tokens', { name: 'script', scope: 'read-only' });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: { token: string } }>().data.token;
}

describe('listing and opening accounts', () => {
  it('lists accounts with their counts and finds them by name or e-mail; planners get 403', async () => {
    const planner = await createUser(t, { name: 'Searchable Planner' });
    await createAlertOk(t, planner, templateId);
    const list = await call(admin, 'GET', `/api/admin/users?search=${encodeURIComponent(planner.email)}`);
    expect(list.statusCode).toBe(200);
    const rows = list.json<{ data: AdminUser[] }>().data;
    expect(rows).toEqual([
      expect.objectContaining({
        id: planner.id,
        name: 'Searchable Planner',
        roles: ['user'],
        alertCount: 1,
        channelCount: 1,
        disabled: false,
        lastSignInAt: expect.any(String),
      }),
    ]);
    const byName = await call(admin, 'GET', '/api/admin/users?search=searchable planner');
    expect(byName.json<{ data: AdminUser[] }>().data.map((u) => u.id)).toContain(planner.id);
    const detail = await call(admin, 'GET', `/api/admin/users/${planner.id}`);
    expect(detail.json<{ data: AdminUserDetail }>().data.alerts).toHaveLength(1);
    expect((await call(planner, 'GET', '/api/admin/users')).statusCode).toBe(403);
  });
});

describe('disabling an account', () => {
  it('refuses its access token and API token at once, its refresh session and sign-in, and pauses its alerts', async () => {
    const planner = await createUser(t);
    const token = await apiToken(planner);
    const alert = await createAlertOk(t, planner, templateId);
    expect((await call(planner, 'GET', '/api/users/me')).statusCode).toBe(200);

    const res = await call(admin, 'PUT', `/api/admin/users/${planner.id}/disabled`, { disabled: true });
    expect(res.json<{ data: AdminUser }>().data.disabled).toBe(true);

    expect((await call(planner, 'GET', '/api/users/me')).statusCode).toBe(401);
    const byToken = await t.request({ method: 'GET', url: '/api/users/me', token });
    expect(byToken.statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { ra_refresh: planner.refreshCookie! },
    });
    expect(refresh.statusCode).toBe(401);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: planner.email, password: STRONG_PASSWORD },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json<{ message: string }>().message).toBe(accountMessages.accountDisabled);
    const row = await t.db
      .selectFrom('alerts')
      .selectAll()
      .where('id', '=', alert.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'DISABLED', suspended_from_status: 'ACTIVE', next_due_at: null });

    await call(admin, 'PUT', `/api/admin/users/${planner.id}/disabled`, { disabled: false });
    const resumed = await t.db
      .selectFrom('alerts')
      .selectAll()
      .where('id', '=', alert.id)
      .executeTakeFirstOrThrow();
    expect(resumed).toMatchObject({ status: 'ACTIVE', suspended_from_status: null });
    const again = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: planner.email, password: STRONG_PASSWORD },
    });
    expect(again.statusCode).toBe(200);
    // Revoked credentials stay revoked: enabling signs nobody back in.
    expect((await t.request({ method: 'GET', url: '/api/users/me', token })).statusCode).toBe(401);
  });

  it('lets admins manage planners only, and nobody their own account', async () => {
    const otherAdmin = await createUser(t, { role: 'admin' });
    const refused = await call(admin, 'PUT', `/api/admin/users/${otherAdmin.id}/disabled`, {
      disabled: true,
    });
    expect(refused.statusCode).toBe(403);
    const self = await call(admin, 'PUT', `/api/admin/users/${admin.id}/disabled`, { disabled: true });
    expect(self.statusCode).toBe(400);
    const bySuper = await call(superAdmin, 'PUT', `/api/admin/users/${otherAdmin.id}/disabled`, {
      disabled: true,
    });
    expect(bySuper.statusCode).toBe(200);
  });
});

describe('roles', () => {
  it('only a super admin grants and revokes admin; the last super admin keeps the role', async () => {
    const planner = await createUser(t);
    const byAdmin = await call(admin, 'PUT', `/api/admin/users/${planner.id}/role`, { level: 'admin' });
    expect(byAdmin.statusCode).toBe(403);
    const granted = await call(superAdmin, 'PUT', `/api/admin/users/${planner.id}/role`, { level: 'admin' });
    expect(granted.json<{ data: AdminUser }>().data.roles).toEqual(['user', 'admin']);
    // The new admin reaches the admin area with the token it already holds (roles are read per request).
    expect((await call(planner, 'GET', '/api/admin/users')).statusCode).toBe(200);
    await call(superAdmin, 'PUT', `/api/admin/users/${planner.id}/role`, { level: 'user' });
    expect((await call(planner, 'GET', '/api/admin/users')).statusCode).toBe(403);

    // A second super admin may demote the first; the last one left cannot leave (its own account
    // is the only one no other super admin acts on).
    const app = await startTestApp();
    try {
      const first = await createUser(app, { role: 'super_admin' });
      const second = await createUser(app, { role: 'super_admin' });
      const demoted = await app.request({
        method: 'PUT',
        url: `/api/admin/users/${first.id}/role`,
        token: second.token,
        body: { level: 'user' },
      });
      expect(demoted.statusCode).toBe(200);
      const selfDemote = await app.request({
        method: 'PUT',
        url: `/api/admin/users/${second.id}/role`,
        token: second.token,
        body: { level: 'user' },
      });
      expect(selfDemote.statusCode).toBe(400);
      const selfDelete = await app.request({
        method: 'DELETE',
        url: '/api/users/me',
        token: second.token,
        body: { password: STRONG_PASSWORD },
      });
      expect(selfDelete.statusCode).toBe(409);
      expect(selfDelete.json<{ message: string }>().message).toBe(accountMessages.lastSuperAdmin);
    } finally {
      await app.close();
    }
  });
});

describe('deleting an account', () => {
  it('removes the account with its alerts, channels and tokens', async () => {
    const planner = await createUser(t);
    await createAlertOk(t, planner, templateId);
    await apiToken(planner);
    const res = await call(admin, 'DELETE', `/api/admin/users/${planner.id}`);
    expect(res.statusCode).toBe(204);
    const left = await Promise.all(
      (['alerts', 'notification_services', 'api_tokens', 'refresh_sessions'] as const).map((table) =>
        t.db.selectFrom(table).select('id').where('user_id', '=', planner.id).execute(),
      ),
    );
    expect(left.flat()).toEqual([]);
    expect((await call(planner, 'GET', '/api/users/me')).statusCode).toBe(401);
    expect((await call(admin, 'GET', `/api/admin/users/${planner.id}`)).statusCode).toBe(404);
  });

  it('lets a planner export their data and delete their own account with their password', async () => {
    const planner = await createUser(t);
    await createAlertOk(t, planner, templateId);
    const exported = await call(planner, 'GET', '/api/users/me/export');
    const data = exported.json<{
      data: { account: { email: string }; alerts: unknown[]; channels: unknown[] };
    }>().data;
    expect(data.account.email).toBe(planner.email);
    expect(data.alerts).toHaveLength(1);
    expect(data.channels).toHaveLength(1);
    expect(JSON.stringify(data)).not.toMatch(/password_hash|token_hash|argon2/);
    const wrong = await call(planner, 'DELETE', '/api/users/me', { password: 'Wrong-password-1' });
    expect(wrong.statusCode).toBe(400);
    const done = await call(planner, 'DELETE', '/api/users/me', { password: STRONG_PASSWORD });
    expect(done.statusCode).toBe(204);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', planner.id).execute()).toEqual([]);
  });
});
