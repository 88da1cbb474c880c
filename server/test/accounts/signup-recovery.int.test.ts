import { type AuthOptions, accountMessages, type CreatedInvitation } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, STRONG_PASSWORD, type TestUser, uniqueEmail } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtpSink } from '../helpers/receivers.ts';

/**
 * Sign-up policy, invitations and password reset, with e-mail through a real SMTP server on loopback.
 */
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let admin: TestUser;
let superAdmin: TestUser;
const PUBLIC_URL = 'http://alerts.example.test';

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL } });
  superAdmin = await createUser(t, { role: 'super_admin' });
  admin = await createUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const register = (email: string, invitation?: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/register',
    body: { name: 'New Planner', email, password: STRONG_PASSWORD, ...(invitation ? { invitation } : {}) },
  });
const setPolicy = (policy: string, who = superAdmin) =>
  t.request({ method: 'PUT', url: '/api/admin/settings/signup', token: who.token, body: { policy } });
async function invite(body: unknown, who = admin): Promise<CreatedInvitation & { token: string }> {
  const res = await t.request({ method: 'POST', url: '/api/admin/invitations', token: who.token, body });
  expect(res.statusCode, res.body).toBe(201);
  const data = res.json<{ data: CreatedInvitation }>().data;
  return { ...data, token: data.url.split('#invitation=')[1]! };
}

describe('sign-up policy', () => {
  it('is open by default, and a super admin (only) sets invite-only or closed', async () => {
    expect((await register(uniqueEmail())).statusCode).toBe(201);
    expect((await setPolicy('closed', admin)).statusCode).toBe(403);
    expect((await setPolicy('invite-only')).statusCode).toBe(200);
    const options = await t.request({ method: 'GET', url: '/api/auth/options' });
    expect(options.json<{ data: AuthOptions }>().data).toEqual({
      signupPolicy: 'invite-only',
      passwordResetByEmail: true,
    });
    const inviteOnly = await register(uniqueEmail());
    expect(inviteOnly.statusCode).toBe(403);
    expect(inviteOnly.json<{ message: string }>().message).toBe(accountMessages.signupInviteOnly);
    await setPolicy('closed');
    expect((await register(uniqueEmail())).json<{ message: string }>().message).toBe(
      accountMessages.signupClosed,
    );
  });

  it('lets the first account of an empty instance register whatever the policy, as super admin', async () => {
    const empty = await startTestApp({ env: { SIGNUP_POLICY: 'closed' } });
    try {
      const first = await empty.request({
        method: 'POST',
        url: '/api/auth/register',
        body: { name: 'Owner', email: uniqueEmail(), password: STRONG_PASSWORD },
      });
      expect(first.statusCode).toBe(201);
      expect(first.json<{ data: { user: { roles: string[] } } }>().data.user.roles).toEqual([
        'user',
        'super_admin',
      ]);
      const second = await empty.request({
        method: 'POST',
        url: '/api/auth/register',
        body: { name: 'Stranger', email: uniqueEmail(), password: STRONG_PASSWORD },
      });
      expect(second.statusCode).toBe(403);
    } finally {
      await empty.close();
    }
  });
});

describe('invitations', () => {
  it('registers through a link once, in any mode, with the role it grants; e-mailed ones verify the address', async () => {
    await setPolicy('closed');
    const email = uniqueEmail('invited');
    const before = smtp.messages.length;
    const created = await invite({ role: 'admin', email }, superAdmin);
    expect(created).toMatchObject({ role: 'admin', email, status: 'pending', emailed: true });
    expect(created.url.startsWith(`${PUBLIC_URL}/register#invitation=`)).toBe(true);
    const mail = (await smtp.waitForMessages(before + 1)).find((m) => m.envelopeTo.includes(email))!;
    expect(mail.text).toContain(created.url);

    const lookup = await t.request({
      method: 'POST',
      url: '/api/auth/invitation',
      body: { token: created.token },
    });
    expect(lookup.json<{ data: unknown }>().data).toMatchObject({ role: 'admin', email });
    expect((await register(uniqueEmail(), created.token)).json<{ message: string }>().message).toBe(
      accountMessages.invitationEmailMismatch,
    );
    const res = await register(email, created.token);
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: { user: { roles: string[] } } }>().data.user.roles).toEqual(['user', 'admin']);
    const row = await t.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();
    // Single use.
    const again = await register(uniqueEmail(), created.token);
    expect(again.statusCode).toBe(400);
    expect(again.json<{ message: string }>().message).toBe(accountMessages.invitationInvalid);
  });

  it('refuses an expired or revoked link; only a super admin invites an admin', async () => {
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/admin/invitations',
          token: admin.token,
          body: { role: 'admin' },
        })
      ).statusCode,
    ).toBe(403);
    const expired = await invite({ role: 'user' });
    await t.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.id)
      .execute();
    expect((await register(uniqueEmail(), expired.token)).statusCode).toBe(400);
    const revoked = await invite({ role: 'user' });
    const del = await t.request({
      method: 'DELETE',
      url: `/api/admin/invitations/${revoked.id}`,
      token: admin.token,
    });
    expect(del.statusCode).toBe(204);
    expect((await register(uniqueEmail(), revoked.token)).statusCode).toBe(400);
    const list = await t.request({ method: 'GET', url: '/api/admin/invitations', token: admin.token });
    const statuses = new Map(
      list.json<{ data: { id: string; status: string }[] }>().data.map((i) => [i.id, i.status]),
    );
    expect([statuses.get(expired.id), statuses.get(revoked.id)]).toEqual(['expired', 'revoked']);
  });
});

describe('password reset', () => {
  beforeAll(async () => {
    await setPolicy('open');
  });
  const forgot = (email: string, ip = '203.0.113.7') =>
    t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { email }, remoteAddress: ip });

  it('e-mails a single-use link, answers unknown addresses alike, and signs the account out everywhere', async () => {
    const planner = await createUser(t);
    const token = (
      await t.request({
        method: 'POST',
        url: '/api/users/me/api-tokens',
        token: planner.token,
        body: { name: 'script', scope: 'read-only' },
      })
    ).json<{ data: { token: string } }>().data.token;
    const before = smtp.messages.length;
    const known = await forgot(planner.email);
    const unknown = await forgot(uniqueEmail('nobody'));
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(known.body).toBe(unknown.body);
    const mail = (await smtp.waitForMessages(before + 1)).find((m) => m.envelopeTo.includes(planner.email))!;
    const link = /http\S+#token=(\S+)/.exec(mail.text ?? '')!;
    expect(link[0].startsWith(`${PUBLIC_URL}/reset-password#token=`)).toBe(true);
    const stored = await t.db.selectFrom('password_resets').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(link[1]);

    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/password/reset',
      body: { token: link[1], password: 'Brand2NewSecret' },
    });
    expect(reset.statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/users/me', token: planner.token })).statusCode).toBe(
      401,
    );
    expect((await t.request({ method: 'GET', url: '/api/users/me', token })).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { ra_refresh: planner.refreshCookie! },
    });
    expect(refresh.statusCode).toBe(401);
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: planner.email, password: 'Brand2NewSecret' },
    });
    expect(login.statusCode).toBe(200);
    const reused = await t.request({
      method: 'POST',
      url: '/api/auth/password/reset',
      body: { token: link[1], password: 'Another3Secret' },
    });
    expect(reused.statusCode).toBe(400);
  });

  it('rate limits requests per address asked for and per client', async () => {
    const email = uniqueEmail('limited');
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await forgot(email, `198.51.100.${i}`)).statusCode);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
    const client = [];
    for (let i = 0; i < 21; i++) client.push((await forgot(uniqueEmail('spray'), '192.0.2.99')).statusCode);
    expect(client.at(-1)).toBe(429);
  });

  it('lets an admin issue a link for a planner when e-mail is not set up', async () => {
    const bare = await startTestApp();
    try {
      const boss = await createUser(bare, { role: 'admin' });
      const planner = await createUser(bare);
      const options = await bare.request({ method: 'GET', url: '/api/auth/options' });
      expect(options.json<{ data: AuthOptions }>().data.passwordResetByEmail).toBe(false);
      const issued = await bare.request({
        method: 'POST',
        url: `/api/admin/users/${planner.id}/password-reset`,
        token: boss.token,
      });
      expect(issued.statusCode).toBe(201);
      const url = issued.json<{ data: { url: string } }>().data.url;
      expect(url.startsWith('/reset-password#token=')).toBe(true);
      const reset = await bare.request({
        method: 'POST',
        url: '/api/auth/password/reset',
        body: { token: url.split('#token=')[1], password: 'Brand2NewSecret' },
      });
      expect(reset.statusCode).toBe(204);
    } finally {
      await bare.close();
    }
  });
});
