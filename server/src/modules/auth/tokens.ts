import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { roles as allRoles, type Role } from '@resort/shared';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Database } from '../../db/database.ts';
import type { AuthClaims } from '../../platform/trpc/context.ts';

const ISSUER = 'resort-alerts';
const AUDIENCE = 'resort-alerts-api';

/** The JWT signing secret: from configuration, else generated once and kept in the database. */
export async function loadSigningSecret(db: Database, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insertInto('app_secrets')
    .values({ name: 'jwt_signing_key', value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', 'jwt_signing_key')
    .executeTakeFirstOrThrow();
  return new TextEncoder().encode(row.value);
}

type VerifyResult = { ok: true; claims: AuthClaims } | { ok: false; reason: string };

/** Verified tokens remembered at once; beyond this the oldest are forgotten (and verified again). */
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * OWASP's device cookie: `<userId>.<nonce>.<mac>`, handed to a browser that signed in to the account.
 * It proves nothing by itself (the password is still checked); it only moves its holder from the
 * account's shared budget for unknown devices to a budget of its own, so strangers' failures cannot
 * lock the owner out. The MAC key is derived from the signing secret (a separate purpose).
 */
function createDeviceCookies(secret: Uint8Array) {
  const key = createHmac('sha256', secret).update('resort-alerts device cookie v1').digest();
  const mac = (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  return {
    issueDeviceCookie(userId: string): string {
      const body = `${userId}.${randomBytes(16).toString('base64url')}`;
      return `${body}.${mac(body)}`;
    },
    /** The account and nonce of a genuine device cookie, or null. */
    verifyDeviceCookie(value: string | undefined): { userId: string; nonce: string } | null {
      const parts = value?.split('.');
      if (parts?.length !== 3) return null;
      const [userId, nonce, given] = parts as [string, string, string];
      const expected = Buffer.from(mac(`${userId}.${nonce}`));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected)
        ? { userId, nonce }
        : null;
    },
  };
}

export function createTokenService(deps: { secret: Uint8Array; ttlSeconds: number }) {
  // A token is presented on every request of its 15 minutes: its HMAC is checked once, then the
  // claims are reused until its own expiry. Keyed by the whole token, signature included, so only a
  // token that verified can hit; an expired one falls through to jose, which names the reason.
  const verified = new Map<string, { claims: AuthClaims; expiresAtMs: number }>();

  function remember(token: string, claims: AuthClaims, exp: number | undefined) {
    if (exp === undefined) return;
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, { claims, expiresAtMs: exp * 1000 });
  }

  return {
    ttlSeconds: deps.ttlSeconds,
    ...createDeviceCookies(deps.secret),
    async issueAccessToken(user: { id: string; roles: readonly string[] }) {
      // `iat` has whole seconds; `iat_ms` places the token against a revocation in the same second.
      const accessToken = await new SignJWT({ roles: user.roles, iat_ms: Date.now() })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setJti(randomBytes(9).toString('base64url'))
        .setExpirationTime(`${deps.ttlSeconds}s`)
        .sign(deps.secret);
      return { accessToken, expiresIn: deps.ttlSeconds };
    },
    async verifyAccessToken(token: string): Promise<VerifyResult> {
      const known = verified.get(token);
      if (known && Date.now() < known.expiresAtMs) return { ok: true, claims: known.claims };
      if (known) verified.delete(token);
      try {
        // The accepted algorithm is fixed: `none` and asymmetric confusion are refused by jose.
        const { payload } = await jwtVerify(token, deps.secret, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
        });
        const claimed = Array.isArray(payload.roles) ? payload.roles : [];
        const roles = claimed.filter((r): r is Role => (allRoles as readonly unknown[]).includes(r));
        if (!payload.sub) return { ok: false, reason: 'Invalid access token.' };
        const claims: AuthClaims = {
          userId: payload.sub,
          roles,
          ...(typeof payload.iat_ms === 'number' ? { issuedAtMs: payload.iat_ms } : {}),
        };
        remember(token, claims, payload.exp);
        return { ok: true, claims };
      } catch (error) {
        if (error instanceof errors.JWTExpired) return { ok: false, reason: 'Access token has expired.' };
        return { ok: false, reason: 'Invalid access token.' };
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
