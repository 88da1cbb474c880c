import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes, for binary bodies (an encrypted push message). */
  rawBody: Buffer;
  receivedAt: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** Resolves when `check` holds, polling briefly; fails with `what` after the timeout. */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A real HTTP server on loopback that records every request and answers what `answer` says
 * (200 "ok" unless told otherwise); the n-th request (0-based) is passed so a test can script it.
 */
export async function startHttpReceiver(
  answer: (req: ReceivedRequest, index: number) => Answer = () => ({ status: 200 }),
) {
  const requests: ReceivedRequest[] = [];
  let respond = answer;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      const index = requests.length;
      requests.push(received);
      const a = respond(received, index);
      res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
      res.end(a.body ?? (a.status < 300 ? 'ok' : 'error'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setAnswer(next: typeof answer) {
      respond = next;
    },
    waitForRequests(n: number, timeoutMs?: number) {
      return waitFor(() => requests.length >= n && requests, `${n} request(s) at the receiver`, timeoutMs);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type HttpReceiver = Awaited<ReturnType<typeof startHttpReceiver>>;

/**
 * A real SMTP server (smtp-server) on loopback that parses every message it accepts (mailparser).
 * Recipients at bounce.test are refused with a permanent 550, as a real server refuses an unknown mailbox;
 * those `greylisted` says are refused with a temporary 451, as a greylisting server does. Every RCPT
 * TO is recorded.
 */
export async function startSmtpSink(options: { greylisted?: (address: string) => boolean } = {}) {
  const messages: (ParsedMail & { envelopeTo: string[] })[] = [];
  const recipients: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      recipients.push(address.address);
      if (options.greylisted?.(address.address)) {
        const err = Object.assign(new Error('4.7.1 Greylisted, try again later'), { responseCode: 451 });
        return callback(err);
      }
      if (!address.address.endsWith('@bounce.test')) return callback();
      const err = Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 });
      return callback(err);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push({ ...mail, envelopeTo: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Every RCPT TO address, accepted or not, in order. */
    recipients,
    waitForMessages(n: number) {
      return waitFor(() => messages.length >= n && messages, `${n} e-mail(s) at the SMTP server`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
