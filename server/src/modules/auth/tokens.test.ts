import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService } from './tokens.ts';

const secret = new TextEncoder().encode('unit-test-secret-that-is-long-enough-0123456789');
const user = { id: '6f1c2f4e-8d0a-4a53-9a57-0c6b1f7e2d11', roles: ['user'] };

/** Flips one character of the signature, keeping it valid base64url. */
function tamper(token: string): string {
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -2)}${last}${token.at(-1)}`;
}

describe('access token verification', () => {
  it('accepts its own tokens, again and again, with the same claims', async () => {
    const tokens = createTokenService({ secret, ttlSeconds: 900 });
    const { accessToken } = await tokens.issueAccessToken(user);
    const first = await tokens.verifyAccessToken(accessToken);
    const again = await tokens.verifyAccessToken(accessToken);
    // issuedAtMs lets a token cut-off (a disabled account, a password reset) refuse older tokens.
    expect(first).toEqual({
      ok: true,
      claims: { userId: user.id, roles: ['user'], issuedAtMs: expect.any(Number) },
    });
    expect(again).toEqual(first);
  });

  it('refuses a tampered token even after the genuine one was verified', async () => {
    const tokens = createTokenService({ secret, ttlSeconds: 900 });
    const { accessToken } = await tokens.issueAccessToken(user);
    await tokens.verifyAccessToken(accessToken);
    expect(await tokens.verifyAccessToken(tamper(accessToken))).toEqual({
      ok: false,
      reason: 'Invalid access token.',
    });
  });

  it('refuses a remembered token once it has expired', async () => {
    const tokens = createTokenService({ secret, ttlSeconds: 1 });
    const { accessToken } = await tokens.issueAccessToken(user);
    expect((await tokens.verifyAccessToken(accessToken)).ok).toBe(true);
    const expiresAtMs = decodeJwt(accessToken).exp! * 1000;
    while (Date.now() < expiresAtMs) await new Promise((r) => setTimeout(r, expiresAtMs - Date.now()));
    expect(await tokens.verifyAccessToken(accessToken)).toEqual({
      ok: false,
      reason: 'Access token has expired.',
    });
  });

  it('refuses a token signed with another secret', async () => {
    const other = createTokenService({ secret: new TextEncoder().encode('x'.repeat(48)), ttlSeconds: 900 });
    const { accessToken } = await other.issueAccessToken(user);
    const tokens = createTokenService({ secret, ttlSeconds: 900 });
    expect((await tokens.verifyAccessToken(accessToken)).ok).toBe(false);
  });
});
