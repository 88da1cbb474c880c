import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: string;
}

/**
 * A webhook receiver on loopback. It records what it gets; the journeys read the record over
 * GET /__received (they run in another process than the global setup).
 */
export async function startReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/__received') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
        return;
      }
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        at: new Date().toISOString(),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function receivedRequests(receiverUrl: string, pathPrefix = '/'): Promise<ReceivedRequest[]> {
  const res = await fetch(`${receiverUrl}/__received`);
  const all = (await res.json()) as ReceivedRequest[];
  return all.filter((r) => r.path.startsWith(pathPrefix));
}
