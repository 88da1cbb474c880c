import { createHash } from 'node:crypto';
import scalarApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './openapi.ts';
import type { DerivedRestRoute } from './rest-routes.ts';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/**
 * Allows exactly the page's own inline scripts by hash: the reference page boots Scalar with one
 * inline call, and the app's policy (script-src 'self') stays closed to every other inline script.
 */
function allowInlineScripts(policy: string, html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  if (!hashes.length) return policy;
  return policy.replace(
    /script-src ([^;]*)/,
    (_all, sources: string) => `script-src ${sources} ${hashes.join(' ')}`,
  );
}

/**
 * The machine-readable document at /api/openapi.json, derived from the procedures, and the
 * reference page at /api/docs (Scalar), which reads that same document.
 */
export async function registerApiDocs(app: FastifyInstance, routes: readonly DerivedRestRoute[]) {
  const document = buildOpenApiDocument(routes);
  app.get('/api/openapi.json', async () => document);
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_req, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '');
      const policy = reply.getHeader('content-security-policy');
      if (typeof payload === 'string' && type.startsWith('text/html') && typeof policy === 'string') {
        reply.header('content-security-policy', allowInlineScripts(policy, payload));
      }
      return payload;
    });
    await scope.register(scalarApiReference, {
      routePrefix: '/api/docs',
      logLevel: 'warn',
      configuration: {
        url: '/api/openapi.json',
        pageTitle: 'Resort Alerts API reference',
        // No fonts from a third-party host: the app's policy allows only its own origin.
        withDefaultFonts: false,
        hideClientButton: true,
        showDeveloperTools: 'never',
        telemetry: false,
      },
    });
  });
}
