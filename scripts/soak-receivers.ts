/**
 * The soak's loopback webhook receivers (scripts/soak.ts), each its own destination: a prompt one for
 * the healthy alerts (every arrival recorded, to account for each opening), a slow one (6 s, every
 * fifth 20 s: past the delivery timeout, so retried) and one whose error bodies hold NUL bytes.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { binaryErrorBody } from './soak-upstreams.ts';

/** The webhook body every soak service sends: the alert and when its poll saw the change. */
export const soakBodyTemplate = '{"alertId":"{{registrationId}}","at":"{{metadata.timestamp}}"}';

export interface Arrival {
  webhookId: string;
  alertId: string;
  /** When the poll saw the change (the notification's metadata.timestamp), epoch ms. */
  seenAt: number;
  receivedAt: number;
}

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

interface Answer {
  delayMs: number;
  status: number;
  body: string | Buffer;
}

/** A receiver answering its n-th request (from 0) as `answer(n)` says. */
async function startReceiver(answer: (n: number) => Answer): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAt = Date.now();
      let body: { alertId?: string; at?: string } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        // not the soak's body: recorded without an alert
      }
      arrivals.push({
        webhookId: String(req.headers['webhook-id'] ?? ''),
        alertId: body.alertId ?? '',
        seenAt: Date.parse(body.at ?? ''),
        receivedAt,
      });
      const { delayMs, status, body: text } = answer(n++);
      const send = () => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/octet-stream' }).end(text);
      };
      if (delayMs > 0) setTimeout(send, delayMs).unref();
      else send();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export const startPromptReceiver = () => startReceiver(() => ({ delayMs: 0, status: 200, body: 'ok' }));

export const startSlowReceiver = () =>
  startReceiver((n) => ({ delayMs: n % 5 === 4 ? 20_000 : 6_000, status: 200, body: 'ok' }));

export const startNulErrorReceiver = () =>
  startReceiver((n) =>
    n % 3 === 2
      ? { delayMs: 0, status: 200, body: 'ok' }
      : { delayMs: 0, status: 500, body: binaryErrorBody },
  );
