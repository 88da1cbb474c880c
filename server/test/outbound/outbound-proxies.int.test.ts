import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOutboundClient, type OutboundRequest } from '../../src/platform/outbound/outbound-client.ts';
import { failure, startUpstream, type TestUpstream } from '../helpers/outbound-upstream.ts';
import {
  startConnectProxy,
  startDroppingProxy,
  startSocks5Proxy,
  type TestProxy,
} from '../helpers/proxies.ts';

let upstream: TestUpstream;
const clients: ReturnType<typeof createOutboundClient>[] = [];
function client(allowlist: string[] = ['127.0.0.1']) {
  const c = createOutboundClient({ allowlist, timeoutMs: 5000, maxBytes: 64 * 1024 });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await upstream.close();
});

describe.each([
  [
    'http CONNECT',
    () => startConnectProxy({ credentials: { username: 'scout', password: 's3cret:pw' } }),
    'http',
  ],
  ['socks5', () => startSocks5Proxy({ username: 'scout', password: 's3cret:pw' }), 'socks5'],
] as const)('through a %s proxy on loopback', (_label, start, protocol) => {
  let proxy: TestProxy;
  let target: (
    overrides?: Partial<NonNullable<OutboundRequest['proxy']>>,
  ) => NonNullable<OutboundRequest['proxy']>;
  beforeAll(async () => {
    proxy = await start();
    target = (overrides = {}) => ({
      protocol,
      host: proxy.host,
      port: proxy.port,
      username: 'scout',
      password: 's3cret:pw',
      ...overrides,
    });
  });
  afterAll(() => proxy.close());

  it('reaches the upstream through one cached tunnel', async () => {
    const c = client();
    const before = upstream.seen.length;
    const first = await c.request({ url: `${upstream.base}/json`, method: 'GET', proxy: target() });
    // undici hands the connection back to its pool just after the body ends; let that happen.
    await new Promise(setImmediate);
    const second = await c.request({ url: `${upstream.base}/json`, method: 'GET', proxy: target() });
    expect(first.json).toEqual({ rooms: [{ price: 120 }] });
    expect(second.status).toBe(200);
    expect(upstream.seen.length).toBe(before + 2);
    expect(proxy.connections).toBe(1);
    expect(proxy.destinations).toEqual([`127.0.0.1:${upstream.port}`]);
  });

  it('closes its proxy tunnels on close()', async () => {
    const own = await start();
    const via = target({ host: own.host, port: own.port });
    const c = createOutboundClient({ allowlist: ['127.0.0.1'], timeoutMs: 5000, maxBytes: 1024 });
    await c.request({ url: `${upstream.base}/json`, method: 'GET', proxy: via });
    expect(own.openSockets).toBe(2);
    await c.close();
    await vi.waitFor(() => expect(own.openSockets).toBe(0));
    const error = await failure(c.request({ url: `${upstream.base}/json`, method: 'GET', proxy: via }));
    expect(error.kind).toBe('network');
    expect(own.connections).toBe(1);
    await own.close();
  });

  it('reports bad proxy credentials as a proxy failure without the password', async () => {
    const error = await failure(
      client().request({
        url: `${upstream.base}/json`,
        method: 'GET',
        proxy: target({ password: 'wrong-pw' }),
      }),
    );
    expect(error.kind).toBe('proxy');
    expect(error.message).toContain(`${protocol} proxy 127.0.0.1:${proxy.port}`);
    expect(error.message).not.toContain('wrong-pw');
  });

  it('refuses private targets before the proxy is asked', async () => {
    const before = proxy.destinations.length;
    for (const url of [
      'http://10.0.0.1/',
      `http://localhost:${upstream.port}/json`,
      `${upstream.base}/json`,
    ]) {
      const error = await failure(client([]).request({ url, method: 'GET', proxy: target() }));
      expect(error.kind).toBe('blocked');
    }
    expect(proxy.destinations.length).toBe(before);
  });
});

describe('a proxy that drops the CONNECT line (issue 21, finding 7)', () => {
  it('costs one connection per request and fails as a proxy failure, within the timeout', async () => {
    const dropping = await startDroppingProxy();
    try {
      const c = createOutboundClient({ allowlist: ['127.0.0.1'], timeoutMs: 2000, maxBytes: 1024 });
      clients.push(c);
      const proxy = { protocol: 'http' as const, host: dropping.host, port: dropping.port };
      for (let i = 1; i <= 3; i++) {
        const error = await failure(c.request({ url: `${upstream.base}/json`, method: 'GET', proxy }));
        expect(error.kind).toBe('proxy');
        expect(error.message).toContain(`http proxy 127.0.0.1:${dropping.port}`);
        expect(dropping.connections).toBe(i);
      }
    } finally {
      await dropping.close();
    }
  });
});
