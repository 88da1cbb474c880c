import { API_TOKEN_PREFIX, apiTokenMessages } from '@resort/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../modules/services.ts';
import { AppError } from '../platform/errors.ts';
import type { AuthClaims, Context } from '../platform/trpc/context.ts';
import { cookieSecureFor } from './transport-security.ts';

export function createContextFactory(services: Services) {
  return async function createContext(
    req: FastifyRequest,
    reply: FastifyReply,
    /** tRPC's connection params: how an EventSource (live events) sends its token. */
    connectionParams?: Record<string, string | undefined> | null,
  ): Promise<Context> {
    let auth: AuthClaims | null = null;
    let authError: string | null = null;
    const paramToken = connectionParams?.token;
    const header = req.headers.authorization ?? (paramToken ? `Bearer ${paramToken}` : undefined);
    if (header) {
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match) {
        authError = 'Authorization header must be a Bearer token.';
      } else {
        const presented = match[1]!.trim();
        if (presented.startsWith(API_TOKEN_PREFIX)) {
          // Personal API tokens are for the REST surface; the SPA's tRPC calls use sessions.
          const path = req.url.split('?')[0] ?? '';
          if (!path.startsWith('/api/')) {
            authError = apiTokenMessages.apiOnly;
          } else {
            const verified = await services.apiTokens.verify(presented);
            if (verified.ok) auth = verified.claims;
            else if (verified.retryAfterSeconds !== undefined)
              throw new AppError('TOO_MANY_REQUESTS', verified.reason, {
                retryAfterSeconds: verified.retryAfterSeconds,
              });
            else authError = verified.reason;
          }
        } else {
          const verified = await services.tokens.verifyAccessToken(presented);
          if (verified.ok) auth = verified.claims;
          else authError = verified.reason;
        }
      }
    }
    const secure = cookieSecureFor(req, services.config);
    // Read once per request: the authenticated rung checks the account exists, the admin rung its roles.
    const roles = new Map<string, Promise<readonly string[] | undefined>>();
    return {
      services,
      log: req.log,
      requestId: req.id,
      ip: req.ip,
      userAgent: req.headers['user-agent'],
      auth,
      authError,
      findRoles: (userId) => {
        let found = roles.get(userId);
        if (!found) {
          found = services.users.findRoles(userId, auth?.userId === userId ? auth.issuedAtMs : undefined);
          roles.set(userId, found);
        }
        return found;
      },
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
