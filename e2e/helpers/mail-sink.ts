import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * The journeys' mail server: a real SMTP server on loopback that keeps every message it accepts,
 * and an HTTP side the journeys read them from (GET /__mail; they run in another process than the
 * global setup).
 */
export async function startMailSink(): Promise<{ smtpUrl: string; url: string; close(): Promise<void> }> {
  const mail: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          mail.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '' });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const http = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mail));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const httpPort = (http.address() as AddressInfo).port;
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    url: `http://127.0.0.1:${httpPort}`,
    close: async () => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

/** Waits for a message to `address` whose text holds a link to `path`, and answers that link. */
export async function linkMailedTo(mailUrl: string, address: string, path: string): Promise<string> {
  const pattern = new RegExp(`https?://\\S+${path.replace(/[/]/g, '\\/')}#\\S+`);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const all = (await (await fetch(`${mailUrl}/__mail`)).json()) as ReceivedMail[];
        const found = all
          .filter((m) => m.to.includes(address.toLowerCase()))
          .map((m) => pattern.exec(m.text)?.[0]);
        link = found.find((l) => l !== undefined);
        return link;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBeDefined();
  return link as string;
}
