import type { Config } from '../../config.ts';

/**
 * The delivery retry schedule (docs/decisions.md), in the spirit of Svix's: the first attempt at
 * once, then base × 8^(n−1) seconds after the n-th failure, capped at the maximum delay, each delay
 * stretched by up to 20 % of random jitter so failed deliveries to one receiver spread out.
 * Defaults (5 s base, 10 h cap, 8 attempts): 5 s, 40 s, 5 m 20 s, 42 m 40 s, 5 h 41 m, 10 h, 10 h
 * between the 8 attempts, 26.5 h or more in all.
 */
const BACKOFF_FACTOR = 8;
const JITTER = 0.2;

export interface RetryPolicy {
  baseSeconds: number;
  maxDelaySeconds: number;
  maxAttempts: number;
}

export function retryPolicyFromConfig(
  config: Pick<
    Config,
    'DELIVERY_RETRY_BASE_SECONDS' | 'DELIVERY_RETRY_MAX_DELAY_SECONDS' | 'DELIVERY_MAX_ATTEMPTS'
  >,
): RetryPolicy {
  return {
    baseSeconds: config.DELIVERY_RETRY_BASE_SECONDS,
    maxDelaySeconds: config.DELIVERY_RETRY_MAX_DELAY_SECONDS,
    maxAttempts: config.DELIVERY_MAX_ATTEMPTS,
  };
}

/** The delay after the `attempt`-th (1-based) failed attempt, before jitter. */
export function nominalDelaySeconds(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelaySeconds, policy.baseSeconds * BACKOFF_FACTOR ** (attempt - 1));
}

/**
 * Seconds to wait before the next attempt after the `attempt`-th failed, or null when the attempts
 * are used up. A receiver's Retry-After is honoured: we never come back sooner than it asked.
 */
export function nextDelaySeconds(
  policy: RetryPolicy,
  attempt: number,
  options: { retryAfterSeconds?: number | null; random?: () => number } = {},
): number | null {
  if (attempt >= policy.maxAttempts) return null;
  const random = options.random ?? Math.random;
  const jittered = nominalDelaySeconds(policy, attempt) * (1 + JITTER * random());
  return Math.max(jittered, options.retryAfterSeconds ?? 0);
}
