/**
 * When an alert is due (docs/product.md, "Polling and rules"; docs/decisions.md). Times are epoch milliseconds.
 *
 * Every alert polls on a grid: `phase + k × interval`. The phase comes from a hash, so alerts spread
 * evenly over their interval and a restart or a bulk import does not fire them all at once. After the
 * first poll the phase is taken from the built request's key: alerts whose requests are identical
 * line up on the same instants and share one upstream fetch.
 */

/** FNV-1a, 32 bits: a stable, cheap hash of a string. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function phaseOf(key: string, intervalMs: number): number {
  return hash32(key) % intervalMs;
}

/** The first grid point strictly after `afterMs`. */
export function nextGridPoint(afterMs: number, phaseMs: number, intervalMs: number): number {
  const k = Math.floor((afterMs - phaseMs) / intervalMs) + 1;
  return phaseMs + k * intervalMs;
}

/**
 * The due time after a poll of `dueMs`: one interval later (no drift), moved once onto the request's
 * phase (never closer than half an interval), and past `nowMs`: windows missed while the poll ran
 * are skipped, not made up in a burst.
 */
export function nextDueAfterPoll(dueMs: number, intervalMs: number, phaseMs: number, nowMs: number): number {
  let next = nextGridPoint(dueMs, phaseMs, intervalMs);
  if (next - dueMs < intervalMs / 2) next += intervalMs;
  if (next <= nowMs) next += (Math.floor((nowMs - next) / intervalMs) + 1) * intervalMs;
  return next;
}

/**
 * When a poll due at `dueMs` starts: the first multiple of `quantumMs` at or after its due time (0:
 * at its due time). Polls due within one quantum share one timer and one wake-up of the worker.
 */
export function startTime(dueMs: number, quantumMs: number): number {
  return quantumMs > 0 ? Math.ceil(dueMs / quantumMs) * quantumMs : dueMs;
}

type CatchUp = { action: 'poll' } | { action: 'reschedule'; nextDueMs: number };

/**
 * A claimed alert that is late: polled now when it missed its due time by at most
 * max(interval, catch-up); otherwise it resumes at its next grid point (after an outage every alert
 * is late, and polling them all at once is the burst the phases exist to prevent).
 */
export function catchUp(dueMs: number, intervalMs: number, nowMs: number, catchUpMs: number): CatchUp {
  if (nowMs - dueMs <= Math.max(intervalMs, catchUpMs)) return { action: 'poll' };
  return {
    action: 'reschedule',
    nextDueMs: dueMs + (Math.floor((nowMs - dueMs) / intervalMs) + 1) * intervalMs,
  };
}
