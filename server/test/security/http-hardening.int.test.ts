import { messages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { restRoutes } from '../../src/http/rest-routes.ts';
import { createUser, STRONG_PASSWORD } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/** Security headers, CORS, cookie flags and body limits (docs/security.md). */
let t: TestApp;
let open: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  open = await startTestApp({
    env: { CORS_ORIGINS: 'https://app.example.com', COOKIE_SECURE: 'true', BODY_LIMIT_BYTES: '2048' },
  });
});
afterAll(async () => {
  await t.close();
  await open.close();
});

function directives(csp: string | undefined): Map<string, string> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!, values.join(' ')] as const;
      }),
  );
}

describe('security headers', () => {
  it('send a strict Content-Security-Policy and the helmet set on every answer', async () => {
    for (const url of ['/api/health', '/api/no-such-route', '/trpc/health.get']) {
      const res = await t.request({ method: 'GET', url });
      const csp = directives(res.headers['content-security-policy'] as string | undefined);
      expect(csp.get('default-src'), url).toBe("'self'");
      // Scripts only from our origin: no inline script, no eval.
      expect(csp.get('script-src'), url).toBe("'self'");
      expect(csp.get('object-src'), url).toBe("'none'");
      expect(csp.get('frame-ancestors'), url).toBe("'none'");
      expect(csp.get('base-uri'), url).toBe("'self'");
      expect(csp.get('connect-src'), url).toBe("'self'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      // Plain HTTP here: HSTS only for HTTPS requests (plain-http.int.test.ts).
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(res.headers['x-powered-by'], url).toBeUndefined();
    }
  });
});

describe('CORS', () => {
  const preflight = (app: TestApp, origin: string) =>
    app.app.inject({
      method: 'OPTIONS',
      url: '/api/users/me',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });

  it('is closed by default: no origin is granted, by preflight or on a plain request', async () => {
    const pre = await preflight(t, 'https://app.example.com');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.request({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('grants exactly the configured origins when CORS_ORIGINS is set', async () => {
    const pre = await preflight(open, 'https://app.example.com');
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(pre.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();

    const user = await createUser(open);
    const get = await open.request({
      method: 'GET',
      url: '/api/users/me',
      token: user.token,
      headers: { origin: 'https://app.example.com' },
    });
    expect(get.statusCode).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(get.headers.vary)).toMatch(/origin/i);

    for (const origin of [
      'https://evil.example',
      'https://app.example.com.evil.example',
      'http://app.example.com',
    ]) {
      const other = await preflight(open, origin);
      expect(other.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});

describe('the refresh cookie', () => {
  const signIn = async (app: TestApp) => {
    const user = await createUser(app);
    const res = await app.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: user.email, password: STRONG_PASSWORD },
    });
    const cookie = res.cookies.find((c) => c.name === 'ra_refresh');
    expect(res.json<{ data: object }>().data).not.toHaveProperty('refreshToken');
    return cookie;
  };

  it('is httpOnly and SameSite=Strict, and not Secure over plain HTTP in development and tests', async () => {
    const cookie = await signIn(t);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.secure).toBeFalsy();
  });

  it('is Secure when COOKIE_SECURE is set; unset, it follows the request (plain-http.int.test.ts)', async () => {
    expect(await signIn(open)).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: true });
    expect(loadConfig({ NODE_ENV: 'production' }).COOKIE_SECURE).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'production', COOKIE_SECURE: 'false' }).COOKIE_SECURE).toBe(false);
  });

  it('is cleared with the same flags on sign-out', async () => {
    const cookie = await signIn(open);
    const out = await open.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { ra_refresh: cookie!.value },
    });
    expect(out.statusCode).toBe(204);
    const cleared = out.cookies.find((c) => c.name === 'ra_refresh');
    expect(cleared).toMatchObject({ value: '', httpOnly: true, sameSite: 'Strict', secure: true });
  });
});

describe('body limits', () => {
  it('answers a body over BODY_LIMIT_BYTES with 413 and a message, on REST and tRPC', async () => {
    const payload = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(3000) });
    for (const url of ['/api/auth/login', '/trpc/auth.login']) {
      const res = await open.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, url).toBe(413);
      expect(res.json(), url).toEqual({ message: messages.common.tooLarge, code: 'PAYLOAD_TOO_LARGE' });
    }
    const small = await open.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x' }),
    });
    expect(small.statusCode).toBe(401);
  });

  it('defaults to 1 MiB', async () => {
    expect(t.config.BODY_LIMIT_BYTES).toBe(1024 * 1024);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ password: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
  });

  it('refuses prototype-poisoning keys with 400', async () => {
    for (const payload of [
      '{"email":"a@example.com","password":"x","__proto__":{"isAdmin":true}}',
      '{"email":"a@example.com","password":"x","constructor":{"prototype":{"isAdmin":true}}}',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json<{ message: string }>().message, payload).toEqual(expect.any(String));
    }
  });

  it.each(
    restRoutes
      .filter((r) => r.method !== 'GET')
      .flatMap((r) =>
        ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded'].map(
          (type) => [r.method, r.path, type] as const,
        ),
      ),
  )('answers 415 to %s %s with a %s body (issue 21, finding 9)', async (method, routePath, type) => {
    const res = await t.app.inject({
      method,
      url: `/api${routePath.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000')}`,
      headers: { 'content-type': type },
      payload: '{"email":"a@example.com","password":"x"}',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json<{ code: string }>().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses bodies that are not JSON with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/xml' },
      payload: '<login/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: messages.common.unsupportedMediaType,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });
});
