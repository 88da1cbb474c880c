import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic, { type SetHeadersResponse } from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Vite names every file under assets/ by its content hash: a changed file is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and the unhashed files at the root are revalidated on every load. */
const REVALIDATE = 'no-cache';

function setCacheHeaders(res: SetHeadersResponse, file: string, root: string): void {
  const relative = path.relative(root, file).split(path.sep);
  res.setHeader('cache-control', relative[0] === 'assets' ? IMMUTABLE : REVALIDATE);
  // The body depends on Accept-Encoding (a .br or .gz twin may be sent), so caches must key on it.
  res.setHeader('vary', 'accept-encoding');
}

/**
 * Serves the built SPA from `clientDist` when it has an index.html; returns whether it does.
 * Compression happens once at build time (client/vite.config.ts writes a .br and a .gz next to
 * every compressible file); here the smallest twin the browser accepts is sent, with
 * `content-encoding`, and the original when there is none.
 */
export async function registerClientAssets(app: FastifyInstance, clientDist: string | undefined) {
  const root = clientDist ? path.resolve(clientDist) : undefined;
  if (root === undefined || !existsSync(path.join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // Our own cache-control per file (below); send's default would be `max-age=0` for all.
    cacheControl: false,
    setHeaders: (res, file) => setCacheHeaders(res, file, root),
  });
  return true;
}
