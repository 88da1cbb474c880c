import { proxyMessages, type WebProxy } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let admin: TestUser;
let planner: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
  planner = await createUser(t);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

async function call<T = unknown>(method: Method, url: string, body?: unknown, token = admin.token) {
  const res = await t.request({ method, url: `/api${url}`, token, body });
  return {
    status: res.statusCode,
    body: res.body ? res.json<{ data: T; message: string; code: string }>() : null,
  };
}

async function createProxy(body: Record<string, unknown>): Promise<WebProxy> {
  const res = await call<WebProxy>('POST', '/proxies', body);
  expect(res.status).toBe(201);
  return res.body!.data;
}

let hostCounter = 0;
const freshHost = () => `proxy-${++hostCounter}-${Date.now()}.example.net`;

describe('POST /api/proxies', () => {
  it('creates with the defaults: port 8080, http, active, zeroed counters', async () => {
    const host = freshHost();
    const proxy = await createProxy({ host: `  ${host} ` });
    expect(proxy).toEqual({
      id: expect.any(String),
      host,
      port: 8080,
      protocol: 'http',
      username: null,
      password: null,
      isActive: true,
      successCount: 0,
      failureCount: 0,
      consecutiveFailures: 0,
      lastAttemptAt: null,
      lastSuccessfulAt: null,
      lastSuccessfulUrl: null,
      lastFailureAt: null,
      lastFailureReason: null,
      autoDisabled: false,
    });
  });

  it('stores credentials, protocol, port and the active flag as given, and answers them to admins', async () => {
    const proxy = await createProxy({
      host: freshHost(),
      port: '1080',
      protocol: 'socks5',
      username: 'scout',
      password: 'pa ss:word',
      isActive: false,
    });
    expect(proxy).toMatchObject({
      port: 1080,
      protocol: 'socks5',
      username: 'scout',
      password: 'pa ss:word',
    });
    expect(proxy.isActive).toBe(false);
    const list = await call<WebProxy[]>('GET', '/proxies');
    expect(list.body!.data.find((p) => p.id === proxy.id)?.password).toBe('pa ss:word');
  });

  it.each([
    [{}, proxyMessages.hostRequired],
    [{ host: '   ' }, proxyMessages.hostRequired],
    [{ host: 'bad host' }, proxyMessages.hostInvalid],
    [{ host: 'p.example.com', port: 0 }, proxyMessages.portRange],
    [{ host: 'p.example.com', port: 65536 }, proxyMessages.portRange],
    [{ host: 'p.example.com', port: 80.5 }, proxyMessages.portRange],
    [{ host: 'p.example.com', protocol: 'ftp' }, proxyMessages.protocolInvalid],
    [{ host: 'p.example.com', username: 'scout' }, proxyMessages.credentialsPair],
    [{ host: 'p.example.com', password: 'secret' }, proxyMessages.credentialsPair],
    [{ host: 'p.example.com', username: 'scout', password: '' }, proxyMessages.credentialsPair],
  ])('refuses %j with "%s"', async (body, message) => {
    const res = await call('POST', '/proxies', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, code: 'BAD_REQUEST' });
  });

  it('accepts the port range ends and answers a duplicate identity with 409', async () => {
    const host = freshHost();
    await createProxy({ host, port: 1 });
    await createProxy({ host, port: 65535 });
    await createProxy({ host, port: 65535, protocol: 'https' });
    await createProxy({ host, port: 65535, username: 'u', password: 'p' });
    const dup = await call('POST', '/proxies', { host: host.toUpperCase(), port: 65535 });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ message: proxyMessages.duplicate, code: 'CONFLICT' });
  });
});

describe('PATCH /api/proxies/:id', () => {
  it('toggles the active flag alone', async () => {
    const proxy = await createProxy({ host: freshHost() });
    const res = await call<WebProxy>('PATCH', `/proxies/${proxy.id}`, { isActive: false });
    expect(res.status).toBe(200);
    expect(res.body!.data).toMatchObject({ id: proxy.id, isActive: false, host: proxy.host, port: 8080 });
  });

  it('edits fields, keeping the credential pair whole', async () => {
    const proxy = await createProxy({ host: freshHost(), username: 'a', password: 'b' });
    const edited = await call<WebProxy>('PATCH', `/proxies/${proxy.id}`, {
      port: 3128,
      protocol: 'https',
      password: 'c',
    });
    expect(edited.body!.data).toMatchObject({ port: 3128, protocol: 'https', username: 'a', password: 'c' });
    const half = await call('PATCH', `/proxies/${proxy.id}`, { username: '' });
    expect(half.status).toBe(400);
    expect(half.body!.message).toBe(proxyMessages.credentialsPair);
    const cleared = await call<WebProxy>('PATCH', `/proxies/${proxy.id}`, { username: '', password: null });
    expect(cleared.body!.data).toMatchObject({ username: null, password: null });
    const bad = await call('PATCH', `/proxies/${proxy.id}`, { host: '' });
    expect(bad.body!.message).toBe(proxyMessages.hostRequired);
  });

  it('answers 409 when an edit collides with another proxy, and 404 for unknown ids', async () => {
    const a = await createProxy({ host: freshHost() });
    const b = await createProxy({ host: freshHost() });
    const clash = await call('PATCH', `/proxies/${b.id}`, { host: a.host });
    expect(clash.status).toBe(409);
    expect(clash.body!.message).toBe(proxyMessages.duplicate);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const missing = await call('PATCH', `/proxies/${id}`, { isActive: true });
      expect(missing.status).toBe(404);
      expect(missing.body!.message).toBe(proxyMessages.notFound);
    }
  });
});

describe('DELETE, reset-failures and bulk-status', () => {
  it('deletes with 204, then answers 404', async () => {
    const proxy = await createProxy({ host: freshHost() });
    const res = await call('DELETE', `/proxies/${proxy.id}`);
    expect(res.status).toBe(204);
    const again = await call('DELETE', `/proxies/${proxy.id}`);
    expect(again.status).toBe(404);
    expect(again.body!.message).toBe(proxyMessages.notFound);
  });

  it('zeroes both failure counters and keeps the success count', async () => {
    const proxy = await createProxy({ host: freshHost() });
    await t.db
      .updateTable('proxies')
      .set({ failure_count: 9, consecutive_failures: 6, success_count: 3, is_active: false })
      .where('id', '=', proxy.id)
      .execute();
    const before = (await call<WebProxy[]>('GET', '/proxies')).body!.data.find((p) => p.id === proxy.id)!;
    expect(before.autoDisabled).toBe(true);
    const res = await call<WebProxy>('POST', `/proxies/${proxy.id}/reset-failures`);
    expect(res.status).toBe(200);
    expect(res.body!.data).toMatchObject({
      failureCount: 0,
      consecutiveFailures: 0,
      successCount: 3,
      autoDisabled: false,
    });
    const missing = await call('POST', '/proxies/00000000-0000-4000-8000-000000000000/reset-failures');
    expect(missing.status).toBe(404);
  });

  it('sets the status of the selected proxies, or of all without ids, and refuses an empty selection', async () => {
    const a = await createProxy({ host: freshHost() });
    const b = await createProxy({ host: freshHost() });
    const selected = await call<{ updated: number }>('POST', '/proxies/bulk-status', {
      isActive: false,
      ids: [a.id],
    });
    expect(selected.body!.data).toEqual({ updated: 1 });
    let list = (await call<WebProxy[]>('GET', '/proxies')).body!.data;
    expect(list.find((p) => p.id === a.id)?.isActive).toBe(false);
    expect(list.find((p) => p.id === b.id)?.isActive).toBe(true);

    const all = await call<{ updated: number }>('POST', '/proxies/bulk-status', { isActive: false });
    expect(all.body!.data.updated).toBe(list.length);
    list = (await call<WebProxy[]>('GET', '/proxies')).body!.data;
    expect(list.every((p) => !p.isActive)).toBe(true);
    await call('POST', '/proxies/bulk-status', { isActive: true });

    const empty = await call('POST', '/proxies/bulk-status', { isActive: true, ids: [] });
    expect(empty.status).toBe(400);
    expect(empty.body!.message).toBe(proxyMessages.selectFirst);
  });
});

describe('access', () => {
  const calls: [Method, string, unknown][] = [
    ['GET', '/proxies', undefined],
    ['POST', '/proxies', { host: 'p.example.com' }],
    ['PATCH', '/proxies/00000000-0000-4000-8000-000000000000', { isActive: true }],
    ['DELETE', '/proxies/00000000-0000-4000-8000-000000000000', undefined],
    ['POST', '/proxies/00000000-0000-4000-8000-000000000000/reset-failures', undefined],
    ['POST', '/proxies/bulk-status', { isActive: false }],
    ['POST', '/proxies/import', { text: 'p.example.com:8080', activateByDefault: true }],
  ];

  it.each(calls)('%s %s answers 403 to a planner and 401 without a token', async (method, url, body) => {
    const forbidden = await call(method, url, body, planner.token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body!.code).toBe('FORBIDDEN');
    const anonymous = await t.request({ method, url: `/api${url}`, body });
    expect(anonymous.statusCode).toBe(401);
  });

  it('changed nothing for the refused calls', async () => {
    const rows = await t.db
      .selectFrom('proxies')
      .select('host')
      .where('host', '=', 'p.example.com')
      .execute();
    expect(rows).toEqual([]);
  });

  it('serves the same procedures over tRPC to admins only', async () => {
    const host = freshHost();
    const created = await t.app.inject({
      method: 'POST',
      url: '/trpc/proxies.create',
      headers: { authorization: `Bearer ${admin.token}` },
      payload: { host },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json<{ result: { data: WebProxy } }>().result.data.host).toBe(host);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/trpc/proxies.list',
      headers: { authorization: `Bearer ${planner.token}` },
    });
    expect(refused.statusCode).toBe(403);
  });
});
