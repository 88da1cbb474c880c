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

/** The environment, parsed once at boot. Nothing else in the server reads process.env. */
export const configSchema = z
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
    COOKIE_SECURE: bool.optional(),
    TRUST_PROXY: bool.default(false),
    BODY_LIMIT_BYTES: int(1024, 50 * 1024 * 1024).default(1024 * 1024),
    CORS_ORIGINS: list.default([]),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'expected an smtp:// or smtps:// URL')
      .optional(),
    SMTP_FROM: z.string().min(3).default('Resort Alerts <alerts@localhost>'),
    SMS_API_URL: z.url('expected an http(s) URL').optional(),
    SMS_ACCOUNT_SID: z.string().min(1).optional(),
    SMS_AUTH_TOKEN: z.string().min(1).optional(),
    SMS_FROM: z.string().min(1).optional(),
    OUTBOUND_ALLOWLIST: list.default([]),
    OUTBOUND_TIMEOUT_MS: int(100, 120_000).default(15_000),
    OUTBOUND_MAX_BYTES: int(1024, 100 * 1024 * 1024).default(5 * 1024 * 1024),
    /** Delivery retries (docs/decisions.md): first retry after the base, ×8 each time, capped. */
    DELIVERY_RETRY_BASE_SECONDS: int(1, 3600).default(5),
    DELIVERY_RETRY_MAX_DELAY_SECONDS: int(1, 7 * 24 * 3600).default(36_000),
    DELIVERY_MAX_ATTEMPTS: int(1, 50).default(8),
    DELIVERY_TIMEOUT_MS: int(100, 120_000).default(15_000),
    DELIVERY_CONCURRENCY: int(1, 256).default(4),
    RUN_WORKER: bool.default(true),
    SERVE_CLIENT: bool.default(true),
    CLIENT_DIST: z.string().min(1).default('client/dist'),
    LOGIN_RATE_LIMIT_PER_HOUR: int(1, 100_000).default(100),
    ENGINE_HOST_CONCURRENCY: int(1, 10_000).default(32),
    ENGINE_HOST_RATE_PER_SECOND: int(1, 1_000_000).default(1000),
    ENGINE_BATCH_SIZE: int(1, 10_000).default(500),
    ENGINE_CONCURRENCY: int(1, 10_000).default(256),
    POLL_RUN_RETENTION_HOURS: int(1, 24 * 365).default(48),
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
    cookieSecure: c.COOKIE_SECURE ?? c.NODE_ENV === 'production',
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
