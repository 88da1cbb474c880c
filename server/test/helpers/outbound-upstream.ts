import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { OutboundError } from '../../src/platform/outbound/outbound-client.ts';

export type TestUpstream = Awaited<ReturnType<typeof startUpstream>>;

/** A loopback upstream that counts the requests it receives. */
export async function startUpstream() {
  const seen: { method: string; url: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://upstream');
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString(),
        headers: req.headers,
      });
      if (url.pathname === '/json') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
        res.end(JSON.stringify({ rooms: [{ price: 120 }] }));
      } else if (url.pathname === '/text-json') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('[1,2,3]');
      } else if (url.pathname === '/html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>caf\u00e9</p>');
      } else if (url.pathname === '/echo') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString() }));
      } else if (url.pathname === '/redirect') {
        res.writeHead(Number(url.searchParams.get('status') ?? 302), {
          location: url.searchParams.get('to') ?? '/',
        });
        res.end();
      } else if (url.pathname === '/big') {
        res
          .writeHead(200, { 'content-type': 'text/plain', 'content-length': '10000' })
          .end('x'.repeat(10_000));
      } else if (url.pathname === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
        res.end();
      } else if (url.pathname === '/hang') {
        // Never answers: the client's timeout must end the call.
      } else {
        res.writeHead(404).end('not found');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    seen,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The OutboundError a call fails with (and a failed expectation if it succeeds). */
export async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}
