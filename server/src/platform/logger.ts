import { pino } from 'pino';

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

export function createLogger(level: string, options: { destination?: pino.DestinationStream } = {}): Logger {
  return pino(
    {
      level,
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: { service: 'resort-alerts' },
    },
    options.destination,
  );
}
