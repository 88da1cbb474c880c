import { parseRetryAfterMs } from '../platform/outbound/retry-after.ts';

/** Thrown when a host asked us to wait (429 / Retry-After) and the wait is not over. */
export class HostBackoffError extends Error {
  readonly until: number;
  constructor(host: string, until: number) {
    super(`${host} asked us to wait until ${new Date(until).toISOString()}; poll deferred.`);
    this.name = 'HostBackoffError';
    this.until = until;
  }
}

interface HostState {
  active: number;
  waiting: { resolve: () => void; reject: (error: Error) => void }[];
  tokens: number;
  refilledAt: number;
  blockedUntil: number;
  timer: NodeJS.Timeout | null;
}

interface HostLimits {
  /** Concurrent requests per host (this worker's share). */
  concurrency: number;
  /** Requests per second per host (this worker's share). */
  ratePerSecond: number;
}

/**
 * Politeness toward upstreams (docs/product.md, "Polling and rules"): per host, at most `concurrency` requests at once and
 * `ratePerSecond` on average (a token bucket holding a tenth of a second's burst), and none while the
 * host's Retry-After runs. Limits are read on each use, so they follow the number of live workers.
 */
export function createHostLimiter(options: { limits: () => HostLimits; now?: () => number }) {
  const now = options.now ?? Date.now;
  const hosts = new Map<string, HostState>();

  function state(host: string): HostState {
    let s = hosts.get(host);
    if (!s) {
      s = { active: 0, waiting: [], tokens: 1, refilledAt: now(), blockedUntil: 0, timer: null };
      hosts.set(host, s);
    }
    return s;
  }

  function takeToken(s: HostState, limits: HostLimits): number {
    const t = now();
    const capacity = Math.max(1, limits.ratePerSecond / 10);
    s.tokens = Math.min(capacity, s.tokens + ((t - s.refilledAt) * limits.ratePerSecond) / 1000);
    s.refilledAt = t;
    if (s.tokens >= 1) {
      s.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - s.tokens) * 1000) / limits.ratePerSecond);
  }

  function pump(host: string, s: HostState) {
    if (s.timer) return;
    const limits = options.limits();
    while (s.waiting.length > 0 && s.active < limits.concurrency) {
      if (s.blockedUntil > now()) {
        for (const w of s.waiting.splice(0)) w.reject(new HostBackoffError(host, s.blockedUntil));
        break;
      }
      const wait = takeToken(s, limits);
      if (wait > 0) {
        s.timer = setTimeout(() => {
          s.timer = null;
          pump(host, s);
        }, wait);
        break;
      }
      s.active++;
      s.waiting.shift()!.resolve();
    }
    if (s.active === 0 && s.waiting.length === 0 && s.blockedUntil <= now() && !s.timer) hosts.delete(host);
  }

  return {
    async run<T>(host: string, task: () => Promise<T>): Promise<T> {
      const s = state(host);
      if (s.blockedUntil > now()) throw new HostBackoffError(host, s.blockedUntil);
      await new Promise<void>((resolve, reject) => {
        s.waiting.push({ resolve, reject });
        pump(host, s);
      });
      try {
        return await task();
      } finally {
        s.active--;
        pump(host, s);
      }
    },

    /** The host answered 429 or Retry-After: nothing more is sent to it for `ms`. */
    backOff(host: string, ms: number): void {
      const s = state(host);
      s.blockedUntil = Math.max(s.blockedUntil, now() + ms);
    },

    figures() {
      let active = 0;
      let waiting = 0;
      let backingOff = 0;
      for (const s of hosts.values()) {
        active += s.active;
        waiting += s.waiting.length;
        if (s.blockedUntil > now()) backingOff++;
      }
      return { hosts: hosts.size, active, waiting, backingOff };
    },
  };
}

export type HostLimiter = ReturnType<typeof createHostLimiter>;

const DEFAULT_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 3_600_000;

/**
 * How long a host asked us to wait: Retry-After in seconds or as an HTTP date; a 429 without it
 * waits 30 s. Answers null when the answer asks for no wait.
 */
export function retryAfterMs(status: number, retryAfter: string | undefined, nowMs: number): number | null {
  let ms = parseRetryAfterMs(retryAfter, nowMs);
  if (ms === null && status === 429) ms = DEFAULT_BACKOFF_MS;
  if (ms === null || (status !== 429 && status !== 503)) return null;
  return Math.min(ms, MAX_BACKOFF_MS);
}
