import { createHash } from 'node:crypto';
import { API_TOKEN_PREFIX, type ApiToken, apiTokenMessages, type CreatedApiToken } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createManualClock } from '../helpers/clock.ts';

const clock = createManualClock();
let t: TestApp;
let planner: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ clock, env: { API_TOKEN_RATE_LIMIT_PER_MINUTE: '40' } });
  planner = await createUser(t);
  admin = await createUser(t, { role: 'admin' });
});
afterAll(() => t.close());

async function createToken(
  owner: TestUser,
  body: { name: string; scope: 'read-only' | 'read-write'; expiresAt?: string | null },
): Promise<CreatedApiToken> {
  const res = await t.request({ method: 'POST', url: '/api/users/me/api-tokens', token: owner.token, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: CreatedApiToken }>().data;
}

const webhook = {
  type: 'WEBHOOK',
  label: 'Integrator hook',
  config: { url: 'https://93.184.215.14/hook', method: 'POST', headers: [], bodyTemplate: '{}' },
};

describe('personal API tokens', () => {
  it('shows the token once, with a recognisable prefix, and stores only its hash', async () => {
    const created = await createToken(planner, { name: 'CI script', scope: 'read-only' });
    expect(created.token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(created.token.length).toBeGreaterThan(40);
    expect(created.apiToken).toMatchObject({ name: 'CI script', scope: 'read-only', lastUsedAt: null });
    expect(created.token.startsWith(created.apiToken.displayPrefix)).toBe(true);

    const row = await t.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.apiToken.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('base64url'));

    const list = await t.request({ method: 'GET', url: '/api/users/me/api-tokens', token: planner.token });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.token);
    expect(list.json<{ data: ApiToken[] }>().data.map((x) => x.id)).toContain(created.apiToken.id);
  });

  it('reads like the owner with read-only scope, refuses writes, and records last use', async () => {
    const { token, apiToken } = await createToken(planner, { name: 'reader', scope: 'read-only' });
    const me = await t.request({ method: 'GET', url: '/api/users/me', token });
    expect(me.statusCode).toBe(200);
    expect(me.json<{ data: { user: { id: string } } }>().data.user.id).toBe(planner.id);

    const write = await t.request({
      method: 'POST',
      url: '/api/users/me/notification-services',
      token,
      body: webhook,
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ message: apiTokenMessages.readOnly, code: 'FORBIDDEN' });

    const list = await t.request({ method: 'GET', url: '/api/users/me/api-tokens', token: planner.token });
    const listed = list.json<{ data: ApiToken[] }>().data.find((x) => x.id === apiToken.id);
    expect(listed?.lastUsedAt).not.toBeNull();
  });

  it('writes with read-write scope, exactly as the owner’s session would', async () => {
    const { token } = await createToken(planner, { name: 'writer', scope: 'read-write' });
    const created = await t.request({
      method: 'POST',
      url: '/api/users/me/notification-services',
      token,
      body: webhook,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ data: { id: string } }>().data.id;
    const removed = await t.request({
      method: 'DELETE',
      url: `/api/users/me/notification-services/${id}`,
      token,
    });
    expect(removed.statusCode).toBe(204);
  });

  it('never reaches admin routes for a planner, nor for an admin with read-only scope', async () => {
    const plannerToken = (await createToken(planner, { name: 'p', scope: 'read-write' })).token;
    const adminReader = (await createToken(admin, { name: 'a', scope: 'read-only' })).token;
    const adminWriter = (await createToken(admin, { name: 'b', scope: 'read-write' })).token;
    for (const url of ['/api/proxies', '/api/admin/registrations', '/api/templates/generators']) {
      expect((await t.request({ method: 'GET', url, token: plannerToken })).statusCode, url).toBe(403);
      expect((await t.request({ method: 'GET', url, token: adminReader })).statusCode, url).toBe(403);
      expect((await t.request({ method: 'GET', url, token: adminWriter })).statusCode, url).toBe(200);
    }
  });

  it('cannot manage tokens or the password, and is not accepted on tRPC', async () => {
    const { token } = await createToken(planner, { name: 'w', scope: 'read-write' });
    const list = await t.request({ method: 'GET', url: '/api/users/me/api-tokens', token });
    expect(list.statusCode).toBe(403);
    expect(list.json()).toEqual({ message: apiTokenMessages.needsSession, code: 'FORBIDDEN' });
    const create = await t.request({
      method: 'POST',
      url: '/api/users/me/api-tokens',
      token,
      body: { name: 'x', scope: 'read-write' },
    });
    expect(create.statusCode).toBe(403);
    const trpc = await t.app.inject({
      method: 'GET',
      url: '/trpc/users.me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(trpc.statusCode).toBe(401);
    expect(trpc.json<{ error: { message: string } }>().error.message).toBe(apiTokenMessages.apiOnly);
  });

  it('answers 401 at once when revoked, expired or unknown, in the error shape', async () => {
    const { token, apiToken } = await createToken(planner, { name: 'gone', scope: 'read-only' });
    expect((await t.request({ method: 'GET', url: '/api/users/me', token })).statusCode).toBe(200);
    const revoke = await t.request({
      method: 'DELETE',
      url: `/api/users/me/api-tokens/${apiToken.id}`,
      token: planner.token,
    });
    expect(revoke.statusCode).toBe(204);
    const afterRevoke = await t.request({ method: 'GET', url: '/api/users/me', token });
    expect(afterRevoke.statusCode).toBe(401);
    expect(afterRevoke.json()).toEqual({ message: apiTokenMessages.revoked, code: 'UNAUTHORIZED' });
    const list = await t.request({ method: 'GET', url: '/api/users/me/api-tokens', token: planner.token });
    expect(list.json<{ data: ApiToken[] }>().data.map((x) => x.id)).not.toContain(apiToken.id);
    const again = await t.request({
      method: 'DELETE',
      url: `/api/users/me/api-tokens/${apiToken.id}`,
      token: planner.token,
    });
    expect(again.statusCode).toBe(404);

    const soon = new Date(clock.now().getTime() + 60 * 60_000).toISOString();
    const expiring = await createToken(planner, { name: 'hour', scope: 'read-only', expiresAt: soon });
    expect(expiring.apiToken.expiresAt).toBe(soon);
    expect((await t.request({ method: 'GET', url: '/api/users/me', token: expiring.token })).statusCode).toBe(
      200,
    );
    clock.advance(61 * 60_000);
    const expired = await t.request({ method: 'GET', url: '/api/users/me', token: expiring.token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: apiTokenMessages.expired, code: 'UNAUTHORIZED' });

    const unknown = await t.request({
      method: 'GET',
      url: '/api/users/me',
      token: `${API_TOKEN_PREFIX}nope`,
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: apiTokenMessages.invalid, code: 'UNAUTHORIZED' });
  });

  it('refuses an expiry in the past, a blank name and an unknown scope', async () => {
    const past = new Date(clock.now().getTime() - 1000).toISOString();
    for (const body of [
      { name: 'old', scope: 'read-only', expiresAt: past },
      { name: ' ', scope: 'read-only' },
      { name: 'x', scope: 'admin' },
    ]) {
      const res = await t.request({
        method: 'POST',
        url: '/api/users/me/api-tokens',
        token: planner.token,
        body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('rate limits each token with 429 and Retry-After', async () => {
    const { token } = await createToken(planner, { name: 'busy', scope: 'read-only' });
    let last = 0;
    let retryAfter: string | undefined;
    for (let i = 0; i < 45 && last !== 429; i++) {
      const res = await t.request({ method: 'GET', url: '/api/template-groups', token });
      last = res.statusCode;
      retryAfter = res.headers['retry-after'] as string | undefined;
      if (last === 429)
        expect(res.json()).toMatchObject({
          message: apiTokenMessages.rateLimited,
          code: 'TOO_MANY_REQUESTS',
        });
    }
    expect(last).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Another token of the same owner is not held back.
    const other = await createToken(planner, { name: 'calm', scope: 'read-only' });
    expect(
      (await t.request({ method: 'GET', url: '/api/template-groups', token: other.token })).statusCode,
    ).toBe(200);
  });
});
