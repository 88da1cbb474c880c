import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, type OutboundErrorKind } from '../../src/platform/outbound/outbound-client.ts';
import { failure, startUpstream, type TestUpstream } from '../helpers/outbound-upstream.ts';

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

describe('direct requests', () => {
  it('reaches an allow-listed loopback upstream and decodes JSON', async () => {
    const before = upstream.seen.length;
    const res = await client().request({ url: `${upstream.base}/json?a=1`, method: 'get' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ rooms: [{ price: 120 }] });
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.url).toBe(`${upstream.base}/json?a=1`);
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    expect(upstream.seen.length).toBe(before + 1);
    expect(upstream.seen.at(-1)?.url).toBe('/json?a=1');
  });

  it('sends method, headers and body; decodes JSON by content, text by charset', async () => {
    const c = client();
    const echo = await c.request({
      url: `${upstream.base}/echo`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Host: 'evil.internal' },
      body: '{"adults":2}',
    });
    expect(echo.json).toEqual({ method: 'POST', body: '{"adults":2}' });
    expect(upstream.seen.at(-1)?.headers.host).toBe(`127.0.0.1:${upstream.port}`);
    const textJson = await c.request({ url: `${upstream.base}/text-json`, method: 'GET' });
    expect(textJson.json).toEqual([1, 2, 3]);
    const html = await c.request({ url: `${upstream.base}/html`, method: 'GET' });
    expect(html.text).toBe('<p>caf\u00e9</p>');
    expect(html.json).toBeUndefined();
  });

  it('refuses the same loopback upstream when it is not allow-listed, without reaching it', async () => {
    const before = upstream.seen.length;
    const error = await failure(client([]).request({ url: `${upstream.base}/json`, method: 'GET' }));
    expect(error.kind).toBe('blocked');
    expect(error.message).toContain('127.0.0.1');
    expect(upstream.seen.length).toBe(before);
  });

  it.each<[string, OutboundErrorKind]>([
    ['http://10.0.0.1/', 'blocked'],
    ['http://169.254.169.254/latest/meta-data/', 'blocked'],
    ['http://100.64.0.1/', 'blocked'],
    ['http://198.18.0.1/', 'blocked'],
    ['http://[::1]/', 'blocked'],
    ['http://[::ffff:127.0.0.1]/', 'blocked'],
    ['http://[fd00::1]/', 'blocked'],
    ['http://2130706433/', 'blocked'],
    ['http://0x7f000001/', 'blocked'],
    ['http://0x7f.1/', 'blocked'],
    ['http://017700000001/', 'blocked'],
    ['http://0.0.0.0/', 'blocked'],
    ['ftp://example.com/file', 'invalid_url'],
    ['file:///etc/passwd', 'invalid_url'],
    ['not a url', 'invalid_url'],
    ['http://user:pass@example.com/', 'invalid_url'],
  ])('refuses %s as %s', async (url, kind) => {
    const error = await failure(client([]).request({ url, method: 'GET' }));
    expect(error.kind).toBe(kind);
  });

  it('refuses a name that resolves to loopback, and reaches it once the name is allow-listed', async () => {
    const before = upstream.seen.length;
    const url = `http://localhost:${upstream.port}/json`;
    const error = await failure(client([]).request({ url, method: 'GET' }));
    expect(error.kind).toBe('blocked');
    expect(error.message).toContain('localhost');
    expect(upstream.seen.length).toBe(before);
    const res = await client(['localhost']).request({ url, method: 'GET' });
    expect(res.status).toBe(200);
  });
});

describe('redirects', () => {
  it('answers a redirect as is by default', async () => {
    const res = await client().request({
      url: `${upstream.base}/redirect?to=http://10.0.0.1/`,
      method: 'GET',
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('http://10.0.0.1/');
  });

  it('refuses a followed redirect to a private address', async () => {
    for (const to of ['http://10.0.0.1/', `http://127.0.0.2:${upstream.port}/json`, 'http://[::1]/']) {
      const error = await failure(
        client().request({
          url: `${upstream.base}/redirect?to=${encodeURIComponent(to)}`,
          method: 'GET',
          maxRedirects: 3,
        }),
      );
      expect(error.kind).toBe('blocked');
    }
  });

  it('follows allowed hops, turning a 303 POST into a GET, and stops at the limit', async () => {
    const res = await client().request({
      url: `${upstream.base}/redirect?status=303&to=/echo`,
      method: 'POST',
      body: 'payload',
      maxRedirects: 2,
    });
    expect(res.json).toEqual({ method: 'GET', body: '' });
    expect(res.url).toBe(`${upstream.base}/echo`);
    const kept = await client().request({
      url: `${upstream.base}/redirect?status=307&to=/echo`,
      method: 'PUT',
      body: 'payload',
      maxRedirects: 1,
    });
    expect(kept.json).toEqual({ method: 'PUT', body: 'payload' });
    const loop = `${upstream.base}/redirect?to=${encodeURIComponent('/redirect?to=/json')}`;
    const error = await failure(client().request({ url: loop, method: 'GET', maxRedirects: 1 }));
    expect(error.kind).toBe('network');
    expect(error.message).toBe('Too many redirects (more than 1).');
  });
});

describe('limits', () => {
  it('times out a server that never answers', async () => {
    const error = await failure(
      client().request({ url: `${upstream.base}/hang`, method: 'GET', timeoutMs: 300 }),
    );
    expect(error.kind).toBe('timeout');
  });

  it('refuses a body over the size cap, declared or streamed', async () => {
    const declared = await failure(
      client().request({ url: `${upstream.base}/big`, method: 'GET', maxBytes: 1024 }),
    );
    expect(declared.kind).toBe('too_large');
    const streamed = await failure(
      client().request({ url: `${upstream.base}/big-chunked`, method: 'GET', maxBytes: 2500 }),
    );
    expect(streamed.kind).toBe('too_large');
    const fits = await client().request({
      url: `${upstream.base}/big-chunked`,
      method: 'GET',
      maxBytes: 10_000,
    });
    expect(fits.text.length).toBe(10_000);
  });

  it('reports a refused connection as a network error', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(client().request({ url: `http://127.0.0.1:${port}/`, method: 'GET' }));
    expect(error.kind).toBe('network');
    expect(error.message).toBe(`Connection refused by 127.0.0.1:${port}.`);
  });
});
