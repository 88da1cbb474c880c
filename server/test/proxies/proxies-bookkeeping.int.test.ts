import type { WebProxy } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import {
  listActiveProxies,
  recordProxyFailure,
  recordProxySuccess,
} from '../../src/modules/proxies/proxies.repo.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let admin: TestUser;
/** A pool of its own so the concurrent reports really run on separate connections. */
let wide: DatabaseHandle;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
  wide = createDatabase(t.database.url, { max: 20 });
});
afterAll(async () => {
  await wide.destroy();
  await t.close();
});

async function createProxy(host: string, extra: Record<string, unknown> = {}): Promise<WebProxy> {
  const res = await t.request({
    method: 'POST',
    url: '/api/proxies',
    token: admin.token,
    body: { host, ...extra },
  });
  return res.json<{ data: WebProxy }>().data;
}

async function readProxy(id: string): Promise<WebProxy> {
  const res = await t.request({ method: 'GET', url: '/api/proxies', token: admin.token });
  return res.json<{ data: WebProxy[] }>().data.find((p) => p.id === id)!;
}

describe('proxy bookkeeping', () => {
  it('records a success: count, time, URL, and a reset failure streak', async () => {
    const proxy = await createProxy('ok.example.com');
    await recordProxyFailure(t.db, proxy.id, 'Connection refused by upstream.example.com.');
    await recordProxySuccess(t.db, proxy.id, 'https://upstream.example.com/availability?d=1');
    const after = await readProxy(proxy.id);
    expect(after).toMatchObject({
      successCount: 1,
      failureCount: 1,
      consecutiveFailures: 0,
      lastSuccessfulUrl: 'https://upstream.example.com/availability?d=1',
      lastFailureReason: 'Connection refused by upstream.example.com.',
      isActive: true,
    });
    expect(after.lastSuccessfulAt).not.toBeNull();
    expect(after.lastAttemptAt).not.toBeNull();
    expect(after.lastFailureAt).not.toBeNull();
  });

  it('records a failure reason that quotes a binary answer (NUL bytes, a cut surrogate pair)', async () => {
    const proxy = await createProxy('binary.example.com');
    await recordProxyFailure(t.db, proxy.id, 'Proxy answered 502: \x1f\x8b\0\0gzip\0 \uD83D');
    expect(await readProxy(proxy.id)).toMatchObject({
      failureCount: 1,
      lastFailureReason: 'Proxy answered 502: \x1f\x8b\uFFFD\uFFFDgzip\uFFFD \uFFFD',
    });
  });

  it('disables a proxy at the fifth consecutive failure and says so once', async () => {
    const proxy = await createProxy('flaky.example.com');
    const outcomes: boolean[] = [];
    for (let i = 1; i <= 6; i++) {
      outcomes.push((await recordProxyFailure(t.db, proxy.id, `failure ${i}`)).deactivated);
    }
    expect(outcomes).toEqual([false, false, false, false, true, false]);
    expect(await readProxy(proxy.id)).toMatchObject({
      isActive: false,
      failureCount: 6,
      consecutiveFailures: 6,
      lastFailureReason: 'failure 6',
      autoDisabled: true,
    });
  });

  it('does not claim to deactivate a proxy an admin had already disabled', async () => {
    const proxy = await createProxy('manual.example.com', { isActive: false });
    const outcomes: boolean[] = [];
    for (let i = 0; i < 5; i++) outcomes.push((await recordProxyFailure(t.db, proxy.id, 'down')).deactivated);
    expect(outcomes).toEqual([false, false, false, false, false]);
    expect((await readProxy(proxy.id)).autoDisabled).toBe(true);
  });

  it('loses no increment under 50 concurrent failure reports', async () => {
    const proxy = await createProxy('busy.example.com');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => recordProxyFailure(wide.db, proxy.id, `worker ${i} failed`)),
    );
    const after = await readProxy(proxy.id);
    expect(after.failureCount).toBe(50);
    expect(after.consecutiveFailures).toBe(50);
    expect(after.isActive).toBe(false);
    expect(after.autoDisabled).toBe(true);
    expect(results.filter((r) => r.deactivated)).toHaveLength(1);
  });

  it('loses no increment under 50 concurrent success reports', async () => {
    const proxy = await createProxy('steady.example.com');
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        recordProxySuccess(wide.db, proxy.id, `https://u.example.com/${i}`),
      ),
    );
    expect(await readProxy(proxy.id)).toMatchObject({
      successCount: 50,
      consecutiveFailures: 0,
      isActive: true,
    });
  });

  it('lists only active proxies, least recently tried first, with what a request needs', async () => {
    const fresh = await createProxy('fresh.example.com', {
      protocol: 'socks5',
      port: 1080,
      username: 'u',
      password: 'p',
    });
    const active = await listActiveProxies(t.db);
    expect(active.every((p) => p.host !== 'flaky.example.com' && p.host !== 'manual.example.com')).toBe(true);
    expect(active.map((p) => p.host)).toContain('ok.example.com');
    expect(active[0]).toEqual({
      id: fresh.id,
      protocol: 'socks5',
      host: 'fresh.example.com',
      port: 1080,
      username: 'u',
      password: 'p',
    });
  });
});
