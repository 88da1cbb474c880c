export type OutboundErrorKind = 'invalid_url' | 'blocked' | 'timeout' | 'too_large' | 'network' | 'proxy';

/** A failed outbound call. The message is human-readable and safe to show to users (no secrets). */
export class OutboundError extends Error {
  readonly kind: OutboundErrorKind;

  constructor(kind: OutboundErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutboundError';
    this.kind = kind;
  }
}

interface ErrorContext {
  /** Host of the target being requested. */
  host: string;
  timeoutMs: number;
  timedOut: boolean;
  /** Set when the call went through a proxy and failed before any answer arrived. */
  proxyLabel: string | null;
}

function findOutboundError(error: unknown): OutboundError | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof OutboundError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function describeCause(error: unknown, host: string): string {
  const e = error as { code?: string; message?: string } | undefined;
  const code = e?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Could not resolve host ${host}.`;
  if (code === 'ECONNREFUSED') return `Connection refused by ${host}.`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return `The connection to ${host} closed unexpectedly.`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${host} is unreachable.`;
  if (/^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code))
    return `Secure connection to ${host} failed: ${e?.message ?? code}.`;
  return `Request to ${host} failed${e?.message ? `: ${e.message}` : '.'}`;
}

const timeoutCodes = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** Any failure of an outbound call as an OutboundError with a kind and a message fit for users. */
export function toOutboundError(error: unknown, context: ErrorContext): OutboundError {
  const known = findOutboundError(error);
  if (known) return known;
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (context.timedOut || timeoutCodes.has(code)) {
    return new OutboundError(
      'timeout',
      `The request to ${context.host} timed out after ${context.timeoutMs} ms.`,
      {
        cause: error,
      },
    );
  }
  if (context.proxyLabel) {
    const detail = error instanceof Error ? error.message : String(error);
    return new OutboundError('proxy', `The ${context.proxyLabel} failed: ${detail}`, { cause: error });
  }
  return new OutboundError('network', describeCause(error, context.host), { cause: error });
}
