import {
  type ImportProxyError,
  isValidProxyHost,
  PROXY_DEFAULT_PROTOCOL,
  type ProxyProtocol,
  proxyMessages,
  proxyProtocols,
} from './proxy.schema.ts';

export interface ParsedProxyLine {
  line: number;
  host: string;
  port: number;
  protocol: ProxyProtocol;
  username: string | null;
  password: string | null;
}

export interface ParsedProxyList {
  proxies: ParsedProxyLine[];
  errors: ImportProxyError[];
  /** Lines that repeat an earlier line of the same list (same identity as the database's). */
  duplicates: number;
}

function isProtocol(value: string): value is ProxyProtocol {
  return (proxyProtocols as readonly string[]).includes(value);
}

/** Splits `host:rest` where host may be a bracketed IPv6 address. */
function splitHost(text: string): { host: string; rest: string[] } | null {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0 || text[close + 1] !== ':') return null;
    return { host: text.slice(1, close), rest: text.slice(close + 2).split(':') };
  }
  const [host = '', ...rest] = text.split(':');
  return { host, rest };
}

type LineResult = Omit<ParsedProxyLine, 'line'> | { reason: string };

/**
 * One line: host:port or host:port:user:password, with an optional trailing :protocol. A password
 * may itself contain ':' (everything between the user and an optional protocol is the password).
 */
export function parseProxyLine(text: string): LineResult {
  const split = splitHost(text);
  if (!split) return { reason: proxyMessages.importLineFormat };
  const { host } = split;
  const parts = [...split.rest];
  let protocol: ProxyProtocol = PROXY_DEFAULT_PROTOCOL;
  if (parts.length >= 2) {
    const last = parts.at(-1)!.trim().toLowerCase();
    if (isProtocol(last)) {
      protocol = last;
      parts.pop();
    } else if (parts.length === 2) {
      // host:port:x is neither form: a lone user without a password, or an unknown protocol.
      return { reason: proxyMessages.importLineFormat };
    }
  }
  if (!host.trim()) return { reason: proxyMessages.hostRequired };
  if (!isValidProxyHost(host.trim())) return { reason: proxyMessages.hostInvalid };
  const [portText = '', username = '', ...passwordParts] = parts;
  if (!/^\d{1,5}$/.test(portText.trim()) || Number(portText) < 1 || Number(portText) > 65535) {
    return {
      reason: portText === '' && parts.length <= 1 ? proxyMessages.importLineFormat : proxyMessages.portRange,
    };
  }
  const password = passwordParts.join(':');
  if (parts.length > 1 && (!username || !password)) return { reason: proxyMessages.credentialsPair };
  return {
    host: host.trim(),
    port: Number(portText),
    protocol,
    username: username || null,
    password: password || null,
  };
}

/** Blank lines and '#' comments are ignored; line numbers count every line of the text. */
export function parseProxyList(text: string): ParsedProxyList {
  const proxies: ParsedProxyLine[] = [];
  const errors: ImportProxyError[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  const lines = text.split(/\r\n|\n|\r/);
  for (const [index, raw] of lines.entries()) {
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) continue;
    const result = parseProxyLine(content);
    if ('reason' in result) {
      errors.push({ line: index + 1, reason: result.reason, content });
      continue;
    }
    // The database's identity: lower(host), port, protocol, username.
    const key = JSON.stringify([
      result.host.toLowerCase(),
      result.port,
      result.protocol,
      result.username ?? '',
    ]);
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    proxies.push({ line: index + 1, ...result });
  }
  return { proxies, errors, duplicates };
}
