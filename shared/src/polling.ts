/**
 * Facts about polling that the server's engine and health figures and the client's screens share.
 */

/** An alert without a completed poll in this many of its intervals is flagged stale. */
export const STALE_AFTER_INTERVALS = 3;

/** Bounds of every polling interval, templates' and alerts' (docs/product.md, "Validation and messages"), in seconds. */
export const MIN_POLLING_INTERVAL_SECONDS = 5;
export const MAX_POLLING_INTERVAL_SECONDS = 86_400;
/** The forms' step between intervals. */
export const POLLING_INTERVAL_STEP_SECONDS = 5;

/** The wording of the bounds, shared by the template and alert messages. */
export const pollingIntervalRangeMessage = `Polling interval must be a whole number between ${MIN_POLLING_INTERVAL_SECONDS} and ${MAX_POLLING_INTERVAL_SECONDS} seconds.`;

/** `seconds` brought within the bounds. */
export function clampPollingInterval(seconds: number): number {
  return Math.min(MAX_POLLING_INTERVAL_SECONDS, Math.max(MIN_POLLING_INTERVAL_SECONDS, seconds));
}

/** Statuses the engine polls (docs/product.md, "Statuses"); BOOKED, PASSED, DISABLED and INACTIVE keep no schedule. */
export const polledStatuses = ['ACTIVE', 'FIRING', 'ERROR'] as const;

export function isPolledStatus(status: string): boolean {
  return (polledStatuses as readonly string[]).includes(status);
}
