import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import {
  type Allowlist,
  assertAddressesAllowed,
  blockedError,
  blockedReason,
  createGuardedLookup,
  isAllowlistedName,
  literalAddress,
  parseAllowlist,
  type Resolver,
  systemResolver,
} from './address-guard.ts';
import { OutboundError, toOutboundError } from './outbound-error.ts';
import { createDispatcherCache, describeProxy, type ProxyTarget } from './proxy-dispatchers.ts';
import { decodeJson, decodeText, flattenHeaders, readCapped } from './response-body.ts';

export type { OutboundErrorKind } from './outbound-error.ts';
export type { ProxyTarget } from './proxy-dispatchers.ts';
export { OutboundError };

export interface OutboundRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  maxBytes?: number;
  proxy?: ProxyTarget | null;
  /** Default 0: a redirect is answered as is. Above 0, each hop is checked again before it is sent. */
  maxRedirects?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  durationMs: number;
  /** The final URL, after any redirects followed. */
  url: string;
}

interface OutboundClientOptions {
  allowlist: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  /** How target names are resolved; the system's resolver (getaddrinfo) when absent. */
  resolver?: Resolver;
}

export type OutboundClient = ReturnType<typeof createOutboundClient>;

/**
 * Headers the caller may not set: hop-by-hop ones belong to the connection, Host must match the
 * checked URL (a forged Host could reach another virtual host behind an allowed address), and the
 * length is computed from the body.
 */
const forbiddenHeaders = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'content-length',
]);

/** Credentials are not carried to another origin when a redirect leaves the first one. */
const credentialHeaders = new Set(['authorization', 'cookie']);

const methodToken = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid_url', 'The URL is not valid.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('invalid_url', `Only http and https URLs are allowed (got ${url.protocol}).`);
  }
  if (url.username || url.password) {
    throw new OutboundError('invalid_url', 'Credentials in the URL are not allowed; use a header instead.');
  }
  return url;
}

function cleanHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (!forbiddenHeaders.has(lower)) clean[lower] = value;
  }
  return clean;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

/** The next hop of a followed redirect, per the fetch standard's method rewriting. */
function nextHop(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = parseTarget(new URL(location, hop.url).href);
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    throw new OutboundError('invalid_url', 'The redirect location is not a valid URL.');
  }
  const toGet =
    status === 303 ? hop.method !== 'HEAD' : (status === 301 || status === 302) && hop.method === 'POST';
  const headers = { ...hop.headers };
  if (toGet) {
    delete headers['content-type'];
  }
  if (url.origin !== hop.url.origin) {
    for (const name of credentialHeaders) delete headers[name];
  }
  return { url, method: toGet ? 'GET' : hop.method, headers, body: toGet ? undefined : hop.body };
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * The one way the server calls a user- or admin-supplied URL. Refuses non-public addresses (checked at
 * connection time, every A/AAAA record) unless allow-listed, caps time and size, and goes through a
 * proxy when asked. See docs/security.md for what can and cannot be checked through a proxy.
 */
export function createOutboundClient(options: OutboundClientOptions) {
  const allowlist: Allowlist = parseAllowlist(options.allowlist);
  const dispatchers = createDispatcherCache({
    lookup: createGuardedLookup(allowlist, options.resolver),
    connectTimeoutMs: options.timeoutMs,
  });

  /**
   * Checks what can be checked before sending: an IP literal always; through a proxy, which resolves
   * the name itself, the name's local resolution too. Direct names are checked again at connect time.
   */
  async function guardTarget(url: URL, proxied: boolean, signal: AbortSignal): Promise<void> {
    const literal = literalAddress(url.hostname);
    if (literal) {
      const reason = blockedReason(literal, allowlist);
      if (reason) throw blockedError(literal, literal, reason);
      return;
    }
    if (!proxied || isAllowlistedName(url.hostname, allowlist)) return;
    let addresses: Awaited<ReturnType<Resolver>>;
    try {
      addresses = await abortable((options.resolver ?? systemResolver)(url.hostname), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new OutboundError('network', `Could not resolve host ${url.hostname}.`, { cause: error });
    }
    assertAddressesAllowed(url.hostname, addresses, allowlist);
  }

  async function send(dispatcher: Dispatcher, hop: Hop, signal: AbortSignal, timeoutMs: number) {
    return dispatcher.request({
      origin: hop.url.origin,
      path: `${hop.url.pathname}${hop.url.search}`,
      method: hop.method,
      headers: hop.headers,
      body: hop.body ?? null,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  let closed = false;

  async function request(req: OutboundRequest): Promise<OutboundResponse> {
    if (closed) throw new OutboundError('network', 'The outbound client is shut down.');
    const started = performance.now();
    const timeoutMs = req.timeoutMs ?? options.timeoutMs;
    const maxBytes = req.maxBytes ?? options.maxBytes;
    const maxRedirects = req.maxRedirects ?? 0;
    const method = req.method.toUpperCase();
    if (!methodToken.test(method))
      throw new OutboundError('invalid_url', `Unsupported HTTP method ${req.method}.`);
    let hop: Hop = { url: parseTarget(req.url), method, headers: cleanHeaders(req.headers), body: req.body };

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new OutboundError('timeout', `The request timed out after ${timeoutMs} ms.`));
    }, timeoutMs);
    const dispatcher = dispatchers.get(req.proxy);
    let answered = false;
    try {
      for (let redirects = 0; ; redirects++) {
        await guardTarget(hop.url, Boolean(req.proxy), controller.signal);
        const res = await send(dispatcher, hop, controller.signal, timeoutMs);
        answered = true;
        const location = res.headers.location;
        if (maxRedirects > 0 && redirectStatuses.has(res.statusCode) && typeof location === 'string') {
          await res.body.dump();
          if (redirects >= maxRedirects) {
            throw new OutboundError('network', `Too many redirects (more than ${maxRedirects}).`);
          }
          hop = nextHop(hop, res.statusCode, location);
          answered = false;
          continue;
        }
        const headers = flattenHeaders(res.headers);
        const bytes = await readCapped(res.body as Readable, maxBytes, headers['content-length']);
        const text = decodeText(bytes, headers['content-type']);
        return {
          status: res.statusCode,
          headers,
          text,
          json: decodeJson(text),
          durationMs: Math.round(performance.now() - started),
          url: hop.url.href,
        };
      }
    } catch (error) {
      throw toOutboundError(error, {
        host: hop.url.host,
        timeoutMs,
        timedOut,
        proxyLabel: req.proxy && !answered ? describeProxy(req.proxy) : null,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async function close(): Promise<void> {
    closed = true;
    await dispatchers.close();
  }

  return { request, close };
}
