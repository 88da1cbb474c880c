import { createHash } from 'node:crypto';
import { authMessages } from '@resort/shared';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createUser, STRONG_PASSWORD } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createManualClock, type ManualClock } from '../helpers/clock.ts';

/**
 * Sessions, as docs/security.md states them: access tokens live 15 minutes at most; a
 * refresh session ends after REFRESH_IDLE_DAYS unused (default 14) and REFRESH_ABSOLUTE_DAYS after
 * sign-in however often it is used (default 30). Time is moved with the services' clock.
 */
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let t: TestApp;
let clock: ManualClock;
beforeAll(async () => {
  clock = createManualClock();
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

interface Refreshed {
  status: number;
  cookie: string | undefined;
  maxAge: number | undefined;
  message: string | undefined;
}

async function refresh(app: TestApp, cookie: string | undefined): Promise<Refreshed> {
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/auth/refresh',
    cookies: cookie ? { ra_refresh: cookie } : {},
  });
  const set = res.cookies.find((c) => c.name === 'ra_refresh');
  return {
    status: res.statusCode,
    cookie: set?.value,
    maxAge: set?.maxAge,
    message: res.statusCode >= 400 ? res.json<{ message: string }>().message : undefined,
  };
}

/** The session family a refresh token belongs to (tokens are stored as SHA-256 digests). */
async function familyOf(cookie: string): Promise<string> {
  const hash = createHash('sha256').update(cookie).digest('base64url');
  const row = await t.db
    .selectFrom('refresh_sessions')
    .select('family_id')
    .where('token_hash', '=', hash)
    .executeTakeFirstOrThrow();
  return row.family_id;
}

async function signIn(app: TestApp) {
  const user = await createUser(app);
  if (!user.refreshCookie) throw new Error('no refresh cookie after sign-in');
  return { ...user, refreshCookie: user.refreshCookie };
}

describe('access tokens', () => {
  it('live 15 minutes and say so in expiresIn', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: (await signIn(t)).email, password: STRONG_PASSWORD },
    });
    const { accessToken, expiresIn } = res.json<{
      data: { tokens: { accessToken: string; expiresIn: number } };
    }>().data.tokens;
    const claims = decodeJwt(accessToken);
    expect(expiresIn).toBe(900);
    expect(claims.exp! - claims.iat!).toBe(900);
  });

  it('cannot be configured longer than 15 minutes', () => {
    expect(() => loadConfig({ ACCESS_TOKEN_TTL_SECONDS: '901' })).toThrow(/ACCESS_TOKEN_TTL_SECONDS/);
    expect(loadConfig({ ACCESS_TOKEN_TTL_SECONDS: '300' }).ACCESS_TOKEN_TTL_SECONDS).toBe(300);
  });
});

describe('idle limit (14 days by default)', () => {
  it('ends a session left unused for longer than the idle limit', async () => {
    const user = await signIn(t);
    clock.advance(14 * DAY + MINUTE);
    const late = await refresh(t, user.refreshCookie);
    expect(late.status).toBe(401);
    expect(late.message).toBe(authMessages.sessionExpired);
  });

  it('keeps a session alive while it is used within the limit, each rotation restarting the idle time', async () => {
    const user = await signIn(t);
    let cookie: string | undefined = user.refreshCookie;
    for (let i = 0; i < 2; i++) {
      clock.advance(13 * DAY);
      const next = await refresh(t, cookie);
      expect(next.status, `refresh after ${(i + 1) * 13} days`).toBe(200);
      cookie = next.cookie;
    }
    // 26 days after sign-in: older than the idle limit, yet alive because it was used.
    const row = await t.db
      .selectFrom('refresh_sessions')
      .select(['expires_at', 'absolute_expires_at'])
      .where('family_id', '=', await familyOf(user.refreshCookie))
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    // The idle end moved on with use; the absolute end did not, and caps it.
    expect(row.expires_at.getTime()).toBe(row.absolute_expires_at.getTime());
    expect(row.absolute_expires_at.getTime() - clock.now().getTime()).toBeLessThanOrEqual(4 * DAY + MINUTE);
  });
});

describe('absolute limit (30 days by default)', () => {
  it('ends a session 30 days after sign-in however often it is used, and a new sign-in starts afresh', async () => {
    const user = await signIn(t);
    let cookie: string | undefined = user.refreshCookie;
    for (const day of [10, 20, 29]) {
      clock.advance(day === 29 ? 9 * DAY : 10 * DAY);
      const next = await refresh(t, cookie);
      expect(next.status, `refresh on day ${day}`).toBe(200);
      // The cookie never outlives the session: on day 29 it has about one day left.
      expect(next.maxAge!, `cookie lifetime on day ${day}`).toBeLessThanOrEqual((30 - day) * 86_400 + 60);
      cookie = next.cookie;
    }
    clock.advance(DAY + MINUTE);
    const ended = await refresh(t, cookie);
    expect(ended.status).toBe(401);
    expect(ended.message).toBe(authMessages.sessionExpired);

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: STRONG_PASSWORD },
    });
    expect(again.statusCode).toBe(200);
    const fresh = again.cookies.find((c) => c.name === 'ra_refresh');
    expect(fresh?.maxAge).toBe(14 * 86_400);
    expect((await refresh(t, fresh?.value)).status).toBe(200);
  });
});

describe('configured limits', () => {
  let small: TestApp;
  let smallClock: ManualClock;
  beforeAll(async () => {
    smallClock = createManualClock();
    small = await startTestApp({
      clock: smallClock,
      env: { REFRESH_IDLE_DAYS: '1', REFRESH_ABSOLUTE_DAYS: '2', ACCESS_TOKEN_TTL_SECONDS: '120' },
    });
  });
  afterAll(() => small.close());

  it('applies REFRESH_IDLE_DAYS, REFRESH_ABSOLUTE_DAYS and ACCESS_TOKEN_TTL_SECONDS', async () => {
    const user = await signIn(small);
    const claims = decodeJwt(user.token);
    expect(claims.exp! - claims.iat!).toBe(120);

    const step = 0.75 * DAY;
    smallClock.advance(step);
    const first = await refresh(small, user.refreshCookie);
    expect(first.status).toBe(200);
    expect(first.maxAge).toBe(DAY / 1000);
    smallClock.advance(step);
    const second = await refresh(small, first.cookie);
    expect(second.status).toBe(200);
    // Idle would allow a full day more; the absolute end, two days after sign-in, is half a day away.
    // (Real time runs on under the moved clock, so a second may already be gone.)
    expect(second.maxAge).toBeLessThanOrEqual(DAY / 2000);
    expect(second.maxAge).toBeGreaterThan(DAY / 2000 - 30);
    smallClock.advance(step);
    // Used within the idle day, yet past the absolute end.
    expect((await refresh(small, second.cookie)).status).toBe(401);

    const idle = await signIn(small);
    smallClock.advance(DAY + MINUTE);
    expect((await refresh(small, idle.refreshCookie)).status).toBe(401);
  });
});

describe('refresh token reuse', () => {
  it('revokes the whole family, including the newest token, when a rotated token comes back', async () => {
    const user = await signIn(t);
    const second = await refresh(t, user.refreshCookie);
    const third = await refresh(t, second.cookie);
    expect(third.status).toBe(200);
    // A thief replays the first token: refused, and the legitimate holder of the third is signed out.
    expect((await refresh(t, user.refreshCookie)).status).toBe(401);
    expect((await refresh(t, third.cookie)).status).toBe(401);
    const live = await t.db
      .selectFrom('refresh_sessions')
      .select('id')
      .where('family_id', '=', await familyOf(user.refreshCookie))
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });
});
