import type { Role } from '@resort/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.ts';

export interface AuthClaims {
  userId: string;
  roles: Role[];
}

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options: { maxAgeSeconds: number; path: string }): void;
  clear(name: string, path: string): void;
}

/** Everything a procedure may use. Built the same way for tRPC and for the REST adapters. */
export interface Context {
  services: Services;
  log: FastifyRequest['log'];
  requestId: string;
  ip: string;
  userAgent: string | undefined;
  /** Verified claims of the bearer token, or null when absent or invalid. */
  auth: AuthClaims | null;
  /** Why a presented token was refused, so a bad token answers 401 with a reason. */
  authError: string | null;
  cookies: CookieJar;
}

export function createContextFactory(services: Services) {
  return async function createContext(req: FastifyRequest, reply: FastifyReply): Promise<Context> {
    let auth: AuthClaims | null = null;
    let authError: string | null = null;
    const header = req.headers.authorization;
    if (header) {
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match) {
        authError = 'Authorization header must be a Bearer token.';
      } else {
        const verified = await services.tokens.verifyAccessToken(match[1]!.trim());
        if (verified.ok) auth = verified.claims;
        else authError = verified.reason;
      }
    }
    const secure = services.config.cookieSecure;
    return {
      services,
      log: req.log,
      requestId: req.id,
      ip: req.ip,
      userAgent: req.headers['user-agent'],
      auth,
      authError,
      cookies: {
        get: (name) => req.cookies[name],
        set: (name, value, o) =>
          void reply.setCookie(name, value, {
            httpOnly: true,
            sameSite: 'strict',
            secure,
            path: o.path,
            maxAge: o.maxAgeSeconds,
          }),
        clear: (name, path) =>
          void reply.clearCookie(name, { path, httpOnly: true, sameSite: 'strict', secure }),
      },
    };
  };
}
