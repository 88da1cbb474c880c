import { notificationMessages } from '@resort/shared';
import { parseRetryAfterMs } from '../../../platform/outbound/retry-after.ts';
import { type OutboundRequester, toOutboundFailure } from './outbound.ts';
import { DeliveryError } from './types.ts';

/** A day: the longest Retry-After we wait for; a longer ask is treated as this. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/** Retry-After as seconds (delta-seconds or HTTP-date), or null when absent or unreadable. */
function parseRetryAfter(value: string | undefined, now: Date): number | null {
  const ms = parseRetryAfterMs(value, now.getTime());
  return ms === null ? null : Math.min(Math.ceil(ms / 1000), MAX_RETRY_AFTER_SECONDS);
}

function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  if (oneLine === '') return '';
  return `: ${oneLine.length > 200 ? `${oneLine.slice(0, 199)}…` : oneLine}`;
}

/**
 * Sends one HTTP delivery through the guarded outbound client and reads the answer: 2xx succeeds;
 * 410 fails for good and deactivates the service; 429 carries its Retry-After; anything else is a
 * retryable failure naming the status and the start of the body, unless `refusedForGood` says the
 * provider refused the request itself (Pushover's and Telegram's 4xx): then it fails for good.
 */
export async function sendHttp(
  outbound: OutboundRequester,
  request: {
    url: string;
    method: string;
    headers: Record<string, string>;
    body?: string | Uint8Array;
    timeoutMs: number;
  },
  receiver: string,
  now: () => Date,
  refusedForGood: (status: number) => boolean = () => false,
): Promise<{ status: number }> {
  let response: Awaited<ReturnType<OutboundRequester['request']>>;
  try {
    // The receiver's answer body only explains failures; a small cap is plenty.
    response = await outbound.request({ ...request, maxBytes: 64 * 1024 });
  } catch (error) {
    throw toOutboundFailure(error);
  }
  const { status } = response;
  if (status >= 200 && status < 300) return { status };
  const message = `${receiver} answered ${status}${snippet(response.text)}`;
  if (status === 410) {
    throw new DeliveryError(message, {
      permanent: true,
      deactivateReason: notificationMessages.deactivatedGone(status),
      status,
    });
  }
  if (status === 429) {
    throw new DeliveryError(message, {
      retryAfterSeconds: parseRetryAfter(response.headers['retry-after'], now()),
      status,
    });
  }
  throw new DeliveryError(message, { permanent: refusedForGood(status), status });
}
