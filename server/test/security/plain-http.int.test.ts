import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, STRONG_PASSWORD } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Plain-HTTP LAN access (http://192.168.1.20:3000): no HSTS, no upgrade-insecure-requests and no
 * Secure refresh cookie unless the request came over HTTPS (directly, or by a trusted proxy's
 * X-Forwarded-Proto) or PUBLIC_URL is https. And the built SPA's caching and compression.
 */
let plain: TestApp;
let proxied: TestApp;
let untrusted: TestApp;
let publicHttps: TestApp;
let dist: string;

const script = `console.log(${JSON.stringify('resort '.repeat(400))});\n`;

beforeAll(async () => {
  dist = await mkdtemp(path.join(tmpdir(), 'resort-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Resort Alerts</title>');
  const asset = path.join(dist, 'assets', 'index-AbC123.js');
  await writeFile(asset, script);
  await writeFile(`${asset}.br`, brotliCompressSync(script));
  await writeFile(`${asset}.gz`, gzipSync(script));
  const production = { NODE_ENV: 'production' };
  plain = await startTestApp({ env: production, clientDist: dist });
  proxied = await startTestApp({ env: { ...production, TRUST_PROXY: 'true' } });
  untrusted = await startTestApp({ env: production });
  publicHttps = await startTestApp({ env: { ...production, PUBLIC_URL: 'https://alerts.example.com' } });
});
afterAll(async () => {
  await Promise.all([plain, proxied, untrusted, publicHttps].map((t) => t?.close()));
  await rm(dist, { recursive: true, force: true });
});

async function signIn(t: TestApp, headers: Record<string, string> = {}) {
  const user = await createUser(t);
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/login',
    body: { email: user.email, password: STRONG_PASSWORD },
    headers,
  });
  expect(res.statusCode).toBe(200);
  return { res, cookie: res.cookies.find((c) => c.name === 'ra_refresh') };
}

const https = { 'x-forwarded-proto': 'https' };

describe('transport security follows the request', () => {
  it('over plain HTTP: no HSTS, no upgrade-insecure-requests, refresh cookie not Secure (even in production)', async () => {
    const { res, cookie } = await signIn(plain);
    for (const r of [res, await plain.request({ method: 'GET', url: '/login' })]) {
      expect(r.headers['strict-transport-security']).toBeUndefined();
      expect(String(r.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
      expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
    }
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(cookie?.secure).toBeFalsy();
  });

  it('leaves out Cross-Origin-Opener-Policy over plain HTTP to a LAN address (browsers ignore it there)', async () => {
    const lan = await plain.request({ method: 'GET', url: '/login', headers: { host: '192.168.1.20:3000' } });
    expect(lan.headers['cross-origin-opener-policy']).toBeUndefined();
    const loopback = await plain.request({
      method: 'GET',
      url: '/login',
      headers: { host: '127.0.0.1:3000' },
    });
    expect(loopback.headers['cross-origin-opener-policy']).toBe('same-origin');
    const viaProxy = await proxied.request({
      method: 'GET',
      url: '/api/health',
      headers: { host: 'alerts.example.com', ...https },
    });
    expect(viaProxy.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('behind a trusted TLS proxy (TRUST_PROXY, X-Forwarded-Proto: https): HSTS, upgrade, Secure cookie', async () => {
    const { res, cookie } = await signIn(proxied, https);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(res.headers['content-security-policy'])).toMatch(/;upgrade-insecure-requests$/);
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    // The same app answering a plain request (a LAN client past the proxy) sends neither.
    const direct = await proxied.request({ method: 'GET', url: '/api/health' });
    expect(direct.headers['strict-transport-security']).toBeUndefined();
    expect(String(direct.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
  });

  it('ignores X-Forwarded-Proto without TRUST_PROXY', async () => {
    const { res, cookie } = await signIn(untrusted, https);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(cookie?.secure).toBeFalsy();
  });

  it('an https PUBLIC_URL turns both on for every answer', async () => {
    const { res, cookie } = await signIn(publicHttps);
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=31536000/);
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    expect(cookie?.secure).toBe(true);
  });
});

describe('the built SPA', () => {
  const get = (url: string, acceptEncoding?: string) =>
    plain.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('sends a hashed asset precompressed (brotli, else gzip, else as is), cached for a year as immutable', async () => {
    const br = await get('/assets/index-AbC123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);
    const gzipped = await get('/assets/index-AbC123.js', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    const identity = await get('/assets/index-AbC123.js');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(script);
    for (const r of [br, gzipped, identity]) {
      expect(r.headers['content-type']).toMatch(/javascript/);
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(r.headers.vary).toLowerCase()).toContain('accept-encoding');
    }
  });

  it('revalidates index.html on every load, at / and on any SPA path', async () => {
    for (const url of ['/', '/index.html', '/login', '/alerts']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });
});
