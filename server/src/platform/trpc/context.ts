import type { ApiTokenScope, Role } from '@resort/shared';
import type { FastifyBaseLogger } from 'fastify';

export interface AuthClaims {
  userId: string;
  roles: Role[];
  /** Set when the caller presented a personal API token rather than a session's access token. */
  apiToken?: { id: string; scope: ApiTokenScope };
  /** When a session's access token was issued (ms): one issued before a revocation is refused. */
  issuedAtMs?: number;
}

interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options: { maxAgeSeconds: number; path: string }): void;
  clear(name: string, path: string): void;
}

/**
 * The domain services a procedure reaches through `ctx.services`. Empty here: the platform knows no
 * domain. The modules ring's composition root (modules/services.ts) fills it in by declaration
 * merging, so procedures see every service typed while this ring imports nothing above it.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging in modules/services.ts
export interface ProcedureServices {}

/** Everything a procedure may use. Built the same way for tRPC and for the REST adapters. */
export interface Context {
  services: ProcedureServices;
  log: FastifyBaseLogger;
  requestId: string;
  ip: string;
  userAgent: string | undefined;
  /** Verified claims of the bearer token, or null when absent or invalid. */
  auth: AuthClaims | null;
  /** Why a presented token was refused, so a bad token answers 401 with a reason. */
  authError: string | null;
  /** The caller's roles as stored now (undefined when the account is gone), read once per request. */
  findRoles(userId: string): Promise<readonly string[] | undefined>;
  cookies: CookieJar;
}
