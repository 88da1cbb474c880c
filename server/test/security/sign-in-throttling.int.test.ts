import { authMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, uniqueEmail } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Issue 21, findings 1-3, and issue 15's shared budget: two real app processes on one database,
 * reached over real HTTP on loopback, each request from its own client address (X-Forwarded-For,
 * with TRUST_PROXY on as behind a balancer). The hourly limit is set to 20 so it can be reached.
 */
const PER_HOUR = 20;
const env = { TRUST_PROXY: 'true', LOGIN_RATE_LIMIT_PER_HOUR: String(PER_HOUR) };

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await startTestApp({ listen: true, env });
  b = await startTestApp({ listen: true, env, database: a.database });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

let addressSeq = 0;
/** A client address never used before in this file. */
const freshAddress = () => {
  addressSeq++;
  return `10.${(addressSeq >> 16) & 255}.${(addressSeq >> 8) & 255}.${addressSeq & 255}`;
};

interface Answer {
  status: number;
  device: string | undefined;
  retryAfter: string | null;
  body: { message?: string; data?: { tokens: { accessToken: string } } };
}

async function post(
  app: TestApp,
  path: string,
  body: unknown,
  options: { ip?: string; device?: string | undefined; token?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': options.ip ?? freshAddress(),
  };
  if (options.device) headers.cookie = `ra_device=${options.device}`;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(`${app.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const device = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('ra_device='))
    ?.split(';')[0]
    ?.slice('ra_device='.length);
  const text = await res.text();
  return {
    status: res.status,
    device,
    retryAfter: res.headers.get('retry-after'),
    body: text ? JSON.parse(text) : {},
  };
}

const signIn = (app: TestApp, email: string, password: string, options?: { device?: string | undefined }) =>
  post(app, '/api/auth/login', { email, password }, options);

/** A new account; answers its e-mail and the device cookie its registering browser received. */
async function newAccount(): Promise<{ email: string; device: string }> {
  const email = uniqueEmail('owner');
  const res = await post(a, '/api/auth/register', { name: 'Owner', email, password: STRONG_PASSWORD });
  expect(res.status).toBe(201);
  expect(res.device).toBeTruthy();
  return { email, device: res.device! };
}

const count = (answers: Answer[], status: number) => answers.filter((r) => r.status === status).length;

describe('sign-in throttling', () => {
  it('finding 1: strangers failing for an account do not lock the owner out of a known device', async () => {
    const owner = await newAccount();
    // Ten wrong passwords from ten addresses, on both app processes.
    for (let i = 0; i < 10; i++) {
      expect((await signIn(i % 2 ? a : b, owner.email, 'Wrong-password-9')).status).toBe(401);
    }
    const stranger = await signIn(a, owner.email, 'Wrong-password-9');
    expect(stranger.status).toBe(429);
    expect(Number(stranger.retryAfter)).toBeGreaterThan(0);
    expect(stranger.body.message).toBe(authMessages.tooManyAttempts);
    // An unknown device waits, even with the right password ...
    expect((await signIn(b, owner.email, STRONG_PASSWORD)).status).toBe(429);
    // ... but the owner's browser, from a fresh address, on either process, signs in at once.
    expect((await signIn(a, owner.email, STRONG_PASSWORD, { device: owner.device })).status).toBe(200);
    expect((await signIn(b, owner.email, STRONG_PASSWORD, { device: owner.device })).status).toBe(200);
  });

  it('a device cookie of another account, or a forged one, is an unknown device', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    for (let i = 0; i < 10; i++) await signIn(a, owner.email, 'Wrong-password-9');
    expect((await signIn(a, owner.email, STRONG_PASSWORD, { device: other.device })).status).toBe(429);
    const [userId, nonce] = owner.device.split('.');
    const forged = `${userId}.${nonce}.${'A'.repeat(43)}`;
    expect((await signIn(a, owner.email, STRONG_PASSWORD, { device: forged })).status).toBe(429);
  });

  it('finding 2: 150 simultaneous guesses on two processes evaluate at most 10, the real password included', async () => {
    const owner = await newAccount();
    const guesses = Array.from({ length: 150 }, (_, i) =>
      signIn(i % 2 ? a : b, owner.email, i === 75 ? STRONG_PASSWORD : `Wrong-password-${i}`),
    );
    const answers = await Promise.all(guesses);
    const evaluated = count(answers, 401) + count(answers, 200);
    expect(evaluated).toBeLessThanOrEqual(10);
    expect(count(answers, 429)).toBe(150 - evaluated);
    expect(count(answers, 401) + count(answers, 429) + count(answers, 200)).toBe(150);
  });

  it('finding 3: the current-password check of a password change is throttled like sign-in', async () => {
    const owner = await newAccount();
    const signedIn = await signIn(a, owner.email, STRONG_PASSWORD, { device: owner.device });
    const token = signedIn.body.data!.tokens.accessToken;
    const change = (app: TestApp, currentPassword: string, device?: string) =>
      post(
        app,
        '/api/users/me/password',
        { currentPassword, newPassword: 'Another-Castle-7' },
        { token, device },
      );
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => change(i % 2 ? a : b, `Wrong-password-${i}`)),
    );
    expect(count(answers, 400)).toBeLessThanOrEqual(10);
    expect(count(answers, 400) + count(answers, 429)).toBe(30);
    expect(answers.find((r) => r.status === 429)?.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(answers.find((r) => r.status === 400)?.body.message).toBe(authMessages.currentPasswordWrong);
    // Sign-in and password change spend one budget: unknown devices now wait to sign in too.
    expect((await signIn(b, owner.email, STRONG_PASSWORD)).status).toBe(429);
    // The owner's own browser still changes the password.
    expect((await change(b, STRONG_PASSWORD, owner.device)).status).toBe(204);
  });

  it(`ASVS V2.2.1: at most ${PER_HOUR} failures per account per hour are evaluated, whatever the mix`, async () => {
    const owner = await newAccount();
    // The owner has signed in on three browsers: three device cookies, each with a budget of its own.
    const devices = [owner.device];
    for (let i = 0; i < 2; i++) {
      const res = await signIn(a, owner.email, STRONG_PASSWORD);
      expect(res.status).toBe(200);
      devices.push(res.device!);
    }
    const token = (await signIn(a, owner.email, STRONG_PASSWORD, { device: devices[0] })).body.data!.tokens
      .accessToken;
    const attempts: Promise<Answer>[] = [];
    for (let i = 0; i < 60; i++) attempts.push(signIn(i % 2 ? a : b, owner.email, `Wrong-${i}-Aa1`));
    for (const [d, device] of devices.entries()) {
      for (let i = 0; i < 20; i++) {
        attempts.push(signIn(i % 2 ? a : b, owner.email, `Wrong-${d}-${i}-Aa1`, { device }));
      }
    }
    for (let i = 0; i < 20; i++) {
      attempts.push(
        post(
          i % 2 ? a : b,
          '/api/users/me/password',
          {
            currentPassword: `Wrong-${i}-Aa1`,
            newPassword: 'Another-Castle-7',
          },
          { token },
        ),
      );
    }
    const answers = await Promise.all(attempts);
    const failuresEvaluated = count(answers, 401) + count(answers, 400);
    expect(failuresEvaluated).toBeGreaterThan(0);
    expect(failuresEvaluated).toBeLessThanOrEqual(PER_HOUR);
    expect(failuresEvaluated + count(answers, 429)).toBe(answers.length);
  });

  it('issue 15: two app processes on one database spend one failure budget', async () => {
    const owner = await newAccount();
    for (let i = 0; i < 5; i++) expect((await signIn(a, owner.email, 'Wrong-password-9')).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await signIn(b, owner.email, 'Wrong-password-9')).status).toBe(401);
    // The eleventh failure is refused whichever process it reaches.
    expect((await signIn(a, owner.email, 'Wrong-password-9')).status).toBe(429);
    expect((await signIn(b, owner.email, 'Wrong-password-9')).status).toBe(429);
  });

  it('a success gives its reservation back: the owner signing in often never runs out', async () => {
    const owner = await newAccount();
    for (let i = 0; i < 15; i++) {
      expect((await signIn(i % 2 ? a : b, owner.email, STRONG_PASSWORD)).status).toBe(200);
    }
  });
});
