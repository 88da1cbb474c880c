import { z } from 'zod';

/** Web proxies used by the polling worker (the Web Proxy Management screen): schemas and messages. */
export const proxyMessages = {
  hostRequired: 'Host is required',
  hostInvalid: 'Enter a valid host name or IP address.',
  portRange: 'Port must be a whole number between 1 and 65535.',
  protocolInvalid: 'Protocol must be http, https or socks5.',
  credentialsPair: 'Provide both username and password',
  selectFirst: 'Select at least one proxy first.',
  importMustBeTxt: 'Import file must be a .txt file.',
  importTextRequired: 'Proxy list text is required.',
  notFound: 'Proxy not found.',
  duplicate: 'A proxy with this host, port, protocol and username already exists.',
  autoDisabled: 'Auto-disabled after repeated failures',
  importLineFormat: 'Expected host:port or host:port:user:password, optionally followed by :protocol',
  importDuplicateInFile: 'Duplicate of an earlier line',
  /** Fallbacks, shown when an error carries no message of its own. */
  loadFailed: 'Unable to load proxies',
  statusFailed: 'Unable to update proxy status.',
  updateFailed: 'Unable to update proxy.',
  deleteFailed: 'Unable to delete the proxy.',
  resetFailed: 'Unable to reset proxy failures.',
  importFailed: 'Unable to import proxy list.',
  createFailed: 'Unable to create proxy.',
  readFileFailed: 'Unable to read the selected file.',
} as const;

export const proxyProtocols = ['http', 'https', 'socks5'] as const;
export type ProxyProtocol = (typeof proxyProtocols)[number];

export const PROXY_DEFAULT_PORT = 8080;
export const PROXY_DEFAULT_PROTOCOL: ProxyProtocol = 'http';
/** Consecutive failures after which a proxy is disabled automatically (docs/product.md, "Limits and constants"). */
export const PROXY_AUTO_DISABLE_FAILURES = 5;

const hostPattern =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.?$/;
const ipv6Pattern = /^[0-9A-Fa-f:.]+$/;

/** A host name, IPv4 or IPv6 address (brackets around IPv6 are dropped). */
export function isValidProxyHost(host: string): boolean {
  if (host.length === 0 || host.length > 253) return false;
  return host.includes(':') ? ipv6Pattern.test(host) && host.split(':').length >= 3 : hostPattern.test(host);
}

export const proxyHostSchema = z
  .string({ error: proxyMessages.hostRequired })
  .trim()
  .transform((h) => (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h))
  .pipe(z.string().min(1, proxyMessages.hostRequired).refine(isValidProxyHost, proxyMessages.hostInvalid));

export const proxyPortSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: proxyMessages.portRange })
    .int(proxyMessages.portRange)
    .min(1, proxyMessages.portRange)
    .max(65535, proxyMessages.portRange),
);

export const proxyProtocolSchema = z.enum(proxyProtocols, { error: proxyMessages.protocolInvalid });

/** Blank credentials are no credentials (a form sends '' for an empty field). */
const credential = (max: number, trim: boolean) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => {
      const value = trim ? v?.trim() : v;
      return value ? value : null;
    });

function bothOrNeither(v: { username?: string | null; password?: string | null }): boolean {
  return Boolean(v.username) === Boolean(v.password);
}

export const createProxyInput = z
  .object({
    host: proxyHostSchema,
    port: proxyPortSchema.default(PROXY_DEFAULT_PORT),
    protocol: proxyProtocolSchema.default(PROXY_DEFAULT_PROTOCOL),
    username: credential(255, true),
    password: credential(255, false),
    isActive: z.boolean().default(true),
  })
  .refine(bothOrNeither, { path: ['password'], message: proxyMessages.credentialsPair });
export type CreateProxy = z.output<typeof createProxyInput>;

export const proxyIdInput = z.object({ id: z.string().min(1, proxyMessages.notFound) });

/**
 * PATCH: the active flag, or any edited fields. When only one credential is sent the server checks
 * the pair against the stored other half.
 */
export const updateProxyInput = z
  .object({
    id: z.string().min(1, proxyMessages.notFound),
    host: proxyHostSchema.optional(),
    port: proxyPortSchema.optional(),
    protocol: proxyProtocolSchema.optional(),
    username: credential(255, true).optional(),
    password: credential(255, false).optional(),
    isActive: z.boolean().optional(),
  })
  .refine((v) => v.username === undefined || v.password === undefined || bothOrNeither(v), {
    path: ['password'],
    message: proxyMessages.credentialsPair,
  });
export type UpdateProxy = z.output<typeof updateProxyInput>;

/** Without ids the status applies to every proxy; an empty selection is a mistake, not "all". */
export const bulkProxyStatusInput = z.object({
  isActive: z.boolean(),
  ids: z.array(z.string().min(1)).min(1, proxyMessages.selectFirst).optional(),
});
export type BulkProxyStatusInput = z.input<typeof bulkProxyStatusInput>;

export function isTxtFileName(name: string): boolean {
  return /\.txt$/i.test(name.trim());
}

export const importProxiesInput = z.object({
  text: z.string({ error: proxyMessages.importTextRequired }),
  activateByDefault: z.boolean().default(true),
  /** The uploaded file's name, when the caller has one: it must end in .txt. */
  fileName: z.string().refine(isTxtFileName, proxyMessages.importMustBeTxt).optional(),
});
export type ImportProxiesInput = z.input<typeof importProxiesInput>;

export interface ImportProxyError {
  /** 1-based line number in the submitted text. */
  line: number;
  reason: string;
  content: string;
}

export interface ImportProxiesResult {
  created: number;
  skipped: number;
  errors: ImportProxyError[];
}

/** A proxy as the API answers it (admins only, so the password is included). */
export interface WebProxy {
  id: string;
  host: string;
  port: number;
  protocol: ProxyProtocol;
  username: string | null;
  password: string | null;
  isActive: boolean;
  successCount: number;
  failureCount: number;
  consecutiveFailures: number;
  lastAttemptAt: string | null;
  lastSuccessfulAt: string | null;
  lastSuccessfulUrl: string | null;
  lastFailureAt: string | null;
  lastFailureReason: string | null;
  /** Disabled with 5 or more consecutive failures: shows 'Auto-disabled after repeated failures'. */
  autoDisabled: boolean;
}

export function isAutoDisabled(p: { isActive: boolean; consecutiveFailures: number }): boolean {
  return !p.isActive && p.consecutiveFailures >= PROXY_AUTO_DISABLE_FAILURES;
}
