import { isIP } from 'node:net';
import { DRIFTED_AFTER_POLLS, FAILING_AFTER_FAILURES, signupPolicies } from '@resort/shared';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `expected a whole number between ${min} and ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, `expected a whole number between ${min} and ${max}`)
        .max(max, `expected a whole number between ${min} and ${max}`),
    );

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0),
);

function isDnsServer(entry: string): boolean {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]!) === 6 && Number(bracketed[2] ?? 53) <= 65535;
  if (isIP(entry)) return true;
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(entry);
  return withPort !== null && isIP(withPort[1]!) === 4 && Number(withPort[2]) <= 65535;
}

function isCorsOrigin(entry: string): boolean {
  if (entry === '*') return true;
  try {
    const url = new URL(entry);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry;
  } catch {
    return false;
  }
}

/** The environment, parsed once at boot. Nothing else in the server reads process.env. */
const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: int(0, 65535).default(3000),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// connection URL')
      .optional(),
    DATA_DIR: z.string().min(1).default('.data'),
    EMBEDDED_PG_PORT: int(1, 65535).default(54329),
    DATABASE_POOL_SIZE: int(1, 200).default(10),
    JWT_SECRET: z.string().min(32, 'expected at least 32 characters').optional(),
    ACCESS_TOKEN_TTL_SECONDS: int(60, 900).default(900),
    REFRESH_IDLE_DAYS: int(1, 90).default(14),
    REFRESH_ABSOLUTE_DAYS: int(1, 365).default(30),
    FIRST_USER_SUPER_ADMIN: bool.default(true),
    /** Unset: the refresh cookie is `Secure` exactly when the request is HTTPS (see PUBLIC_URL). */
    COOKIE_SECURE: bool.optional(),
    /** The address users open; an https one turns on HSTS and upgrade-insecure-requests for every answer. */
    PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
    TRUST_PROXY: bool.default(false),
    BODY_LIMIT_BYTES: int(1024, 50 * 1024 * 1024).default(1024 * 1024),
    /** Browser origins allowed to call the API cross-origin; empty keeps CORS closed. */
    CORS_ORIGINS: list
      .refine((origins) => origins.every(isCorsOrigin), {
        message: 'expected * or origins like https://app.example.com (scheme, host, optional port)',
      })
      .default([]),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'expected an smtp:// or smtps:// URL')
      .optional(),
    SMTP_FROM: z.string().min(3).default('Resort Alerts <alerts@localhost>'),
    SMS_API_URL: z.url('expected an http(s) URL').optional(),
    SMS_ACCOUNT_SID: z.string().min(1).optional(),
    SMS_AUTH_TOKEN: z.string().min(1).optional(),
    SMS_FROM: z.string().min(1).optional(),
    /** Provider bases of the native channels whose address the user does not give (tests point them at loopback). */
    PUSHOVER_API_URL: z.url('expected an http(s) URL').default('https://api.pushover.net'),
    TELEGRAM_API_URL: z.url('expected an http(s) URL').default('https://api.telegram.org'),
    /** The contact a push service may reach the operator at (RFC 8292 `sub`): a mailto: or https: URL. */
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)/, 'expected a mailto: or https:// URL')
      .default('mailto:alerts@localhost'),
    OUTBOUND_ALLOWLIST: list.default([]),
    /** DNS servers (ip or ip:port) that resolve outbound target names instead of the system resolver. */
    OUTBOUND_DNS_SERVERS: list
      .refine((servers) => servers.every(isDnsServer), {
        message: 'expected IP addresses, optionally with a port (1.1.1.1, 127.0.0.1:5353, [::1]:53)',
      })
      .default([]),
    OUTBOUND_TIMEOUT_MS: int(100, 120_000).default(15_000),
    OUTBOUND_MAX_BYTES: int(1024, 100 * 1024 * 1024).default(5 * 1024 * 1024),
    /** Delivery retries (docs/decisions.md): first retry after the base, ×8 each time, capped. */
    DELIVERY_RETRY_BASE_SECONDS: int(1, 3600).default(5),
    DELIVERY_RETRY_MAX_DELAY_SECONDS: int(1, 7 * 24 * 3600).default(36_000),
    DELIVERY_MAX_ATTEMPTS: int(1, 50).default(8),
    DELIVERY_TIMEOUT_MS: int(100, 120_000).default(15_000),
    /** Deliveries one process holds at once (claimed: being sent, or waiting for room at their destination). */
    DELIVERY_CONCURRENCY: int(1, 100_000).default(1024),
    /** Deliveries sent at once to one destination (a webhook's origin, the SMTP server, the SMS provider). */
    DELIVERY_HOST_CONCURRENCY: int(1, 10_000).default(32),
    /** Deliveries claimed per statement. */
    DELIVERY_BATCH_SIZE: int(1, 10_000).default(100),
    /** A claim's lease: a killed process's deliveries are sent again by another once it ends. Renewed while sending. */
    DELIVERY_LEASE_SECONDS: int(3, 3600).default(15),
    /** Claims again this often while holding deliveries (new deliveries wake the delivery workers through LISTEN/NOTIFY). */
    DELIVERY_POLL_MS: int(10, 60_000).default(250),
    /**
     * A delivery worker holding nothing sleeps until the next delivery comes due (a retry, a lease
     * ending), at most this long: the bound on a NOTIFY missed while its connection was away.
     */
    DELIVERY_IDLE_POLL_MS: int(100, 600_000).default(30_000),
    /** Pooled SMTP connections per process (reused across e-mails). */
    SMTP_POOL_SIZE: int(1, 100).default(5),
    RUN_WORKER: bool.default(true),
    SERVE_CLIENT: bool.default(true),
    CLIENT_DIST: z.string().min(1).default('client/dist'),
    LOGIN_RATE_LIMIT_PER_HOUR: int(1, 100_000).default(100),
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: int(1, 100_000).default(30),
    /** Who may register until a super admin sets it in the UI: open, invite-only or closed. */
    SIGNUP_POLICY: z.enum(signupPolicies).default('open'),
    /** How long an invitation link works. */
    INVITATION_TTL_HOURS: int(1, 24 * 90).default(7 * 24),
    /** How long a password reset link works. */
    PASSWORD_RESET_TTL_MINUTES: int(5, 24 * 60).default(60),
    /** E-mails or texts one channel receives an hour at most; beyond, deliveries are skipped with the reason. */
    CHANNEL_SENDS_PER_HOUR: int(1, 100_000).default(60),
    API_TOKEN_RATE_LIMIT_PER_MINUTE: int(1, 1_000_000).default(600),
    ENGINE_HOST_CONCURRENCY: int(1, 10_000).default(32),
    ENGINE_HOST_RATE_PER_SECOND: int(1, 1_000_000).default(1000),
    ENGINE_BATCH_SIZE: int(1, 10_000).default(500),
    ENGINE_CONCURRENCY: int(1, 10_000).default(256),
    POLL_RUN_RETENTION_HOURS: int(1, 24 * 365).default(48),
    /** Notifications and their deliveries are kept this long; each alert's latest is kept regardless. */
    NOTIFICATION_RETENTION_DAYS: int(1, 3650).default(90),
    /** Alerts claimed this far ahead of their due time, so the poll starts on time. */
    ENGINE_LOOKAHEAD_MS: int(0, 60_000).default(1000),
    ENGINE_TICK_MS: int(10, 60_000).default(500),
    /**
     * A worker with nothing claimed sleeps until the next due time, at most this long: the bound on a
     * wake-up lost (NOTIFY missed while its connection was away) before the worker looks again.
     */
    ENGINE_IDLE_POLL_MS: int(100, 600_000).default(30_000),
    /** Claimed alerts one worker holds at most (waiting for their due time or in flight). */
    ENGINE_MAX_PENDING: int(1, 1_000_000).default(5000),
    /** Consecutive failed polls that turn an alert to ERROR and its health to failing (K). */
    ENGINE_ERROR_AFTER_FAILURES: int(1, 1000).default(FAILING_AFTER_FAILURES),
    /** Answers in a row without a rule's path that make an alert's health drifted (N). */
    ENGINE_DRIFT_AFTER_POLLS: int(1, 1000).default(DRIFTED_AFTER_POLLS),
    /**
     * An owner is told of health changes once their alerts have not changed for this long (four
     * times this at most), so alerts failing together are told in one message and a blip that
     * recovers within it is not told at all.
     */
    HEALTH_NOTICE_DELAY_SECONDS: int(0, 3600).default(30),
    /** How often each engine worker looks for health changes to tell. */
    HEALTH_NOTICE_TICK_MS: int(50, 600_000).default(5000),
    /**
     * How often a worker reads the pool-wide health (alerts without a successful check in three
     * intervals turn failing; templates most of whose alerts fail are told to admins): one scan of
     * the polled alerts each time.
     */
    HEALTH_SWEEP_MS: int(1000, 3_600_000).default(30_000),
    /** A claim's lease; a live worker renews it for polls that take longer. */
    ENGINE_LEASE_SECONDS: int(10, 86_400).default(120),
    /** A worker whose heartbeat is older than this is gone: its claims are released. */
    ENGINE_WORKER_TIMEOUT_SECONDS: int(2, 3600).default(5),
    /** Identical requests started within this window share one upstream fetch. */
    ENGINE_COALESCE_WINDOW_MS: int(0, 60_000).default(1000),
    /** A poll missed by more than max(interval, this) resumes at its next phase instead of now. */
    ENGINE_CATCH_UP_SECONDS: int(0, 86_400).default(30),
    /**
     * Polls start at the first multiple of this at or after their due time, so those due close
     * together share one wake-up of the worker (0: each at its due time).
     */
    ENGINE_START_QUANTUM_MS: int(0, 1000).default(250),
    /** A poll outcome with a notification is written back (and the notification handed over) within this. */
    ENGINE_FLUSH_MS: int(1, 10_000).default(50),
    /** A poll outcome with nothing to tell is written back within this (at least ENGINE_FLUSH_MS). */
    ENGINE_QUIET_FLUSH_MS: int(1, 600_000).default(250),
    /** Write-back transactions one worker runs at once. */
    ENGINE_FLUSH_CONCURRENCY: int(1, 64).default(4),
    /** New alerts up to this many at once are polled at once; a larger import is spread by phase. */
    ENGINE_PROMPT_FIRST_POLLS: int(0, 1_000_000).default(100),
  })
  .refine((c) => !(c.SMS_API_URL && !(c.SMS_ACCOUNT_SID && c.SMS_AUTH_TOKEN && c.SMS_FROM)), {
    path: ['SMS_API_URL'],
    message: 'SMS_API_URL needs SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM',
  })
  .transform((c) => ({
    ...c,
    smtpConfigured: c.SMTP_URL !== undefined,
    smsConfigured: c.SMS_API_URL !== undefined,
    embeddedDatabase: c.DATABASE_URL === undefined,
    /** True when users reach the app over https whatever the request says (a TLS terminator we do not see). */
    publicUrlHttps: c.PUBLIC_URL?.startsWith('https:') ?? false,
  }));

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses an environment; a bad value throws one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(configSchema.in.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    const got =
      input[name] === undefined ? '' : ` (got ${JSON.stringify(redactIfSecret(name, input[name]))})`;
    throw new ConfigError(`Invalid configuration: ${name}: ${issue.message}${got}`);
  }
  return parsed.data;
}

function redactIfSecret(name: string, value: string): string {
  return /SECRET|TOKEN|PASSWORD|DATABASE_URL|SMTP_URL/.test(name) ? '[redacted]' : value;
}
