import { DeliveryError } from './types.ts';

/** The part of the guarded outbound client (engine/outbound) the channels use. */
export interface OutboundRequester {
  request(req: {
    url: string;
    method: string;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs?: number;
    maxBytes?: number;
  }): Promise<{
    status: number;
    headers: Record<string, string>;
    text: string;
    json: unknown;
    durationMs: number;
    url: string;
  }>;
}

interface OutboundErrorLike {
  kind: string;
  message: string;
}

function isOutboundError(error: unknown): error is OutboundErrorLike {
  return error instanceof Error && typeof (error as { kind?: unknown }).kind === 'string';
}

/** An outbound failure as a delivery failure: a refused or invalid address is permanent, the rest retry. */
export function toOutboundFailure(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  if (isOutboundError(error)) {
    const badDestination = error.kind === 'blocked' || error.kind === 'invalid_url';
    return new DeliveryError(error.message, { permanent: badDestination, badDestination, cause: error });
  }
  throw error;
}
