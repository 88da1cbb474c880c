import { pino } from 'pino';
import pretty from 'pino-pretty';

export type Logger = pino.Logger;

/** Paths that never reach a log line: tokens, passwords, cookies, secrets. */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.accessToken',
  '*.refreshToken',
  '*.signingSecret',
  '*.signing_secret',
  '*.password_hash',
  'config.JWT_SECRET',
  'config.SMS_AUTH_TOKEN',
  'config.SMTP_URL',
  'config.DATABASE_URL',
];

/**
 * The process's logger: one JSON object a line (for log collectors), or human-readable lines when
 * `pretty` (by default: when standard output is a terminal). Secrets are redacted either way.
 */
export function createLogger(
  level: string,
  options: { destination?: pino.DestinationStream; pretty?: boolean } = {},
): Logger {
  const readable = options.pretty ?? process.stdout.isTTY === true;
  const destination = readable
    ? pretty({
        destination: options.destination ?? 1,
        colorize: options.destination === undefined,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,service',
        sync: true,
      })
    : options.destination;
  return pino(
    {
      level,
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: { service: 'resort-alerts' },
    },
    destination,
  );
}
