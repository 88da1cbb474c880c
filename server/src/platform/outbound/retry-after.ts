/**
 * An upstream's or a receiver's Retry-After (RFC 9110 §10.2.3: delta-seconds or an HTTP date) as
 * milliseconds from `nowMs`; a date already past is 0. Null when absent or unreadable. Each caller
 * applies its own cap and default: the engine's host back-off, the notification channels' retry.
 */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
