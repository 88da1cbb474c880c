/**
 * A fixed-window counter per key, in process memory. One app process enforces it; several
 * processes behind a balancer each enforce it (docs/decisions.md).
 */
export function createRateLimiter(options: { limit: number; windowMs: number; now?: () => number }) {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();

  function current(key: string) {
    const t = now();
    let w = windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + options.windowMs };
      windows.set(key, w);
    }
    if (windows.size > 100_000) {
      for (const [k, v] of windows) if (v.resetAt <= t) windows.delete(k);
    }
    return w;
  }

  return {
    /** Seconds until the key may try again, or 0 when it may now. */
    retryAfterSeconds(key: string): number {
      const w = current(key);
      return w.count >= options.limit ? Math.max(1, Math.ceil((w.resetAt - now()) / 1000)) : 0;
    },
    hit(key: string): number {
      const w = current(key);
      w.count++;
      return w.count;
    },
    count(key: string): number {
      return current(key).count;
    },
    reset(key: string): void {
      windows.delete(key);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
