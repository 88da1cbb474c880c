import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Whether the browser reached us over HTTPS: the socket is TLS, or a trusted proxy says so
 * (`X-Forwarded-Proto`, honoured only with TRUST_PROXY), or PUBLIC_URL says users come in by https.
 * Over plain HTTP (a LAN address, http://192.168.1.20:3000) the answer carries neither HSTS nor
 * `upgrade-insecure-requests`: either would make the browser fetch the SPA's scripts over https,
 * which nothing answers, and the page would stay blank.
 */
function isSecureRequest(req: FastifyRequest, config: Config): boolean {
  return req.protocol === 'https' || config.publicUrlHttps;
}

/** Loopback names a browser treats as a trustworthy origin even over plain HTTP. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\./.test(hostname) ||
    hostname === '[::1]'
  );
}

/**
 * HSTS and the CSP's `upgrade-insecure-requests` for HTTPS requests only. Runs after helmet's own
 * hook (registered later), which writes the policy on the raw response. Over plain HTTP to a
 * non-loopback address the browser ignores Cross-Origin-Opener-Policy and logs an error for every
 * page, so it is left out there.
 */
export function registerTransportSecurity(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!isSecureRequest(req, config)) {
      if (!isLoopbackHost(req.hostname)) reply.raw.removeHeader('cross-origin-opener-policy');
      return;
    }
    reply.raw.setHeader('strict-transport-security', HSTS);
    const csp = reply.raw.getHeader('content-security-policy');
    if (typeof csp === 'string')
      reply.raw.setHeader('content-security-policy', `${csp};upgrade-insecure-requests`);
  });
}

/** The refresh cookie's `Secure` flag: COOKIE_SECURE when set, else whether this request is HTTPS. */
export function cookieSecureFor(req: FastifyRequest, config: Config): boolean {
  return config.COOKIE_SECURE ?? isSecureRequest(req, config);
}
