import { authMessages } from '@resort/shared';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, STRONG_PASSWORD, uniqueEmail } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface AuthBody {
  data: {
    tokens: { accessToken: string; expiresIn: number };
    user: { id: string; email: string; roles: string[] };
  };
}

const register = (body: unknown) => t.request({ method: 'POST', url: '/api/auth/register', body });
const login = (email: string, password: string, ip?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    ...(ip ? { remoteAddress: ip } : {}),
  });
const refreshWith = (cookie: string | undefined) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh', cookies: cookie ? { ra_refresh: cookie } : {} });
const refreshCookie = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'ra_refresh')?.value;

describe('register', () => {
  it('creates the account, answers tokens and user, and sets an httpOnly refresh cookie', async () => {
    const email = uniqueEmail();
    const res = await register({ name: 'Ada Planner', email, password: STRONG_PASSWORD });
    expect(res.statusCode).toBe(201);
    const body = res.json<AuthBody>();
    expect(body.data.tokens.expiresIn).toBe(900);
    expect(body.data.tokens.accessToken.split('.')).toHaveLength(3);
    expect(body.data.user).toMatchObject({ email, name: 'Ada Planner' });
    const cookie = res.cookies.find((c) => c.name === 'ra_refresh');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  });

  it('adds the Primary Email Alerts service for the new account', async () => {
    const user = await createUser(t);
    const me = await t.request({ method: 'GET', url: '/api/users/me', token: user.token });
    expect(me.statusCode).toBe(200);
    const services = me.json<{
      data: { notificationServices: { type: string; label: string; config: unknown }[] };
    }>().data.notificationServices;
    expect(services).toEqual([
      expect.objectContaining({
        type: 'EMAIL',
        label: 'Primary Email Alerts',
        config: { toEmail: user.email },
      }),
    ]);
  });

  it('stores an argon2id hash with at least OWASP parameters', async () => {
    const user = await createUser(t);
    const row = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
    const params = Object.fromEntries(
      (row.password_hash.split('$')[3] ?? '').split(',').map((kv) => kv.split('=') as [string, string]),
    );
    expect(Number(params.m)).toBeGreaterThanOrEqual(19456);
    expect(Number(params.t)).toBeGreaterThanOrEqual(2);
  });

  it('refuses a duplicate e-mail, case-insensitively, with 409', async () => {
    const email = uniqueEmail();
    expect((await register({ name: 'A', email, password: STRONG_PASSWORD })).statusCode).toBe(201);
    const again = await register({ name: 'B', email: email.toUpperCase(), password: STRONG_PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: authMessages.emailTaken, code: 'CONFLICT' });
  });

  it.each([
    ['short', 'Ab1'],
    ['no upper case', 'sunshine2castle'],
    ['no lower case', 'SUNSHINE2CASTLE'],
    ['no digit', 'SunshineCastle'],
  ])('refuses a weak password (%s) with the hint', async (_case, password) => {
    const res = await register({ name: 'A', email: uniqueEmail(), password });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: authMessages.passwordHint });
  });

  it('refuses a password over 256 characters', async () => {
    const res = await register({ name: 'A', email: uniqueEmail(), password: `Aa1${'x'.repeat(260)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: authMessages.passwordTooLong });
  });

  it('refuses missing fields with 400', async () => {
    const res = await register({});
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: { path: string }[] }>().issues.map((i) => i.path)).toEqual([
      'name',
      'email',
      'password',
    ]);
  });
});

describe('login', () => {
  it('signs in with the right password, whatever the e-mail case', async () => {
    const user = await createUser(t);
    const res = await login(user.email.toUpperCase(), STRONG_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json<AuthBody>().data.user.id).toBe(user.id);
  });

  it('answers a wrong password and an unknown e-mail alike with 401', async () => {
    const user = await createUser(t);
    const wrong = await login(user.email, 'Wrong-password-9');
    const unknown = await login(uniqueEmail(), 'Wrong-password-9');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ message: authMessages.invalidCredentials });
  });

  it('refuses missing fields with 400', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/login', body: { email: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: authMessages.emailRequired });
  });

  it('rate limits a burst of wrong logins for one e-mail with 429 and Retry-After before the 20th', async () => {
    const user = await createUser(t);
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 20; i++) {
      // Each attempt from a different address: the per-account limit must hold on its own.
      const res = await login(user.email, 'Wrong-password-9', `10.1.0.${i + 1}`);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        retryAfter = res.headers['retry-after'] as string;
        break;
      }
    }
    expect(statuses).toContain(429);
    expect(statuses.length).toBeLessThan(20);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // The right password is refused too while the account is locked.
    expect((await login(user.email, STRONG_PASSWORD, '10.1.1.1')).statusCode).toBe(429);
  });
});

describe('tokens', () => {
  it('refuses an expired token with 401', async () => {
    const user = await createUser(t);
    const secret = new TextEncoder().encode(t.config.JWT_SECRET);
    const expired = await new SignJWT({ roles: ['user'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('resort-alerts')
      .setAudience('resort-alerts-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    const res = await t.request({ method: 'GET', url: '/api/auth/me', token: expired });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'Access token has expired.' });
  });

  it('refuses an unsigned (alg none) token', async () => {
    const user = await createUser(t);
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: user.id, roles: ['super_admin'], iss: 'resort-alerts', aud: 'resort-alerts-api', exp: 9999999999 })}.`;
    const res = await t.request({ method: 'GET', url: '/api/auth/me', token: none });
    expect(res.statusCode).toBe(401);
  });

  it('answers the profile on GET /api/auth/me', async () => {
    const user = await createUser(t);
    const res = await t.request({ method: 'GET', url: '/api/auth/me', token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { id: user.id, email: user.email, roles: ['user'] } });
  });
});

describe('refresh sessions', () => {
  it('rotates the refresh token and detects reuse of an old one, revoking the family', async () => {
    const user = await createUser(t);
    const first = user.refreshCookie;
    const rotated = await refreshWith(first);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json<AuthBody>().data.user.id).toBe(user.id);
    const second = refreshCookie(rotated);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    // The old token again: reuse → 401, and the whole family is revoked, so the new one dies too.
    const reuse = await refreshWith(first);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toMatchObject({ message: authMessages.sessionExpired });
    expect((await refreshWith(second)).statusCode).toBe(401);
  });

  it('stores refresh tokens hashed', async () => {
    const user = await createUser(t);
    const rows = await t.db
      .selectFrom('refresh_sessions')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.token_hash)).not.toContain(user.refreshCookie);
  });

  it('refuses a refresh with no cookie', async () => {
    expect((await refreshWith(undefined)).statusCode).toBe(401);
  });

  it('logout revokes the session', async () => {
    const user = await createUser(t);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { ra_refresh: user.refreshCookie! },
    });
    expect(out.statusCode).toBe(204);
    expect((await refreshWith(user.refreshCookie)).statusCode).toBe(401);
  });
});

describe('password change', () => {
  it('changes the password and revokes other sessions but keeps the current one', async () => {
    const user = await createUser(t);
    const other = refreshCookie(await login(user.email, STRONG_PASSWORD));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/password',
      headers: { authorization: `Bearer ${user.token}` },
      cookies: { ra_refresh: user.refreshCookie! },
      payload: { currentPassword: STRONG_PASSWORD, newPassword: 'Moonlight3Palace' },
    });
    expect(res.statusCode).toBe(204);
    expect((await refreshWith(other)).statusCode).toBe(401);
    expect((await refreshWith(user.refreshCookie)).statusCode).toBe(200);
    expect((await login(user.email, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.email, 'Moonlight3Palace')).statusCode).toBe(200);
  });

  it('refuses a wrong current password and a weak new one', async () => {
    const user = await createUser(t);
    const wrong = await t.request({
      method: 'POST',
      url: '/api/users/me/password',
      token: user.token,
      body: { currentPassword: 'Nope-nope-1', newPassword: 'Moonlight3Palace' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: authMessages.currentPasswordWrong });
    const weak = await t.request({
      method: 'POST',
      url: '/api/users/me/password',
      token: user.token,
      body: { currentPassword: STRONG_PASSWORD, newPassword: 'weak' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ message: authMessages.passwordHint });
  });
});

describe('profile', () => {
  it('saves profile fields on the server', async () => {
    const user = await createUser(t);
    const res = await t.request({
      method: 'PATCH',
      url: '/api/users/me',
      token: user.token,
      body: {
        displayName: 'Ada',
        headline: 'Park planner',
        bio: 'Loves fireworks',
        backupEmail: 'b@example.com',
        mobileNumber: '+15555550100',
      },
    });
    expect(res.statusCode).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/auth/me', token: user.token });
    expect(me.json()).toMatchObject({
      data: {
        displayName: 'Ada',
        headline: 'Park planner',
        bio: 'Loves fireworks',
        backupEmail: 'b@example.com',
        mobileNumber: '+15555550100',
      },
    });
  });

  it('refuses unknown profile fields and a bad backup e-mail', async () => {
    const user = await createUser(t);
    const res = await t.request({
      method: 'PATCH',
      url: '/api/users/me',
      token: user.token,
      body: { roles: ['admin'] },
    });
    expect(res.statusCode).toBe(400);
    const bad = await t.request({
      method: 'PATCH',
      url: '/api/users/me',
      token: user.token,
      body: { backupEmail: 'nope' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ message: authMessages.emailInvalid });
  });
});

describe('tRPC surface', () => {
  it('registers, signs in and reads the summary through tRPC too', async () => {
    const email = uniqueEmail();
    const reg = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.register',
      payload: { name: 'Trpc Planner', email, password: STRONG_PASSWORD },
    });
    expect(reg.statusCode).toBe(200);
    const token = reg.json<{ result: { data: AuthBody['data'] } }>().result.data.tokens.accessToken;
    const me = await t.app.inject({
      method: 'GET',
      url: '/trpc/users.me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ result: { data: { user: { email: string } } } }>().result.data.user.email).toBe(email);
    const dup = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.register',
      payload: { name: 'Again', email, password: STRONG_PASSWORD },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json<{ error: { message: string } }>().error.message).toBe(authMessages.emailTaken);
  });
});
