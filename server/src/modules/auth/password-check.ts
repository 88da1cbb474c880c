import { setTimeout as sleep } from 'node:timers/promises';
import { authMessages } from '@resort/shared';
import type { RateLimiterFactory } from '../../platform/rate-limiter.ts';
import { reserveAll } from '../../platform/rate-limiter.ts';

const FIFTEEN_MINUTES = 15 * 60;
const HOUR = 60 * 60;
/** Failures within a quarter hour before a device (or the unknown devices of an account) must wait. */
const SHORT_WINDOW_FAILURES = 10;
/** Attempts per client address per quarter hour, successes included. */
const ATTEMPTS_PER_ADDRESS = 100;

export interface PasswordCheckClient {
  ip: string;
  /** The device cookie the browser presented, if any. */
  device: string | undefined;
}

/**
 * Every place a password is verified goes through here (sign-in and the current-password check of a
 * password change), so they share one budget per account (OWASP ASVS V2.2.1, OWASP's device cookies):
 *
 * - an attempt reserves its points *before* the hash is checked, in PostgreSQL, atomically: parallel
 *   guesses from any number of addresses and app processes all count, and at most the budget is ever
 *   evaluated; a success gives its reservation back, so only failures use the account's budget;
 * - unknown devices share the account's budget: 10 failures a quarter hour, half the hourly limit;
 * - a device that signed in to the account before (its device cookie) has a budget of its own, 10
 *   failures a quarter hour, and all such devices together the other half of the hourly limit; so
 *   however many strangers fail, the owner's browser still signs in;
 * - per client address, 100 attempts a quarter hour.
 *
 * Together at most `perHour` failed attempts per account per hour are evaluated, whatever the mix.
 */
export function createPasswordCheck(deps: {
  rateLimits: RateLimiterFactory;
  perHour: number;
  verifyDevice: (cookie: string | undefined) => { userId: string; nonce: string } | null;
}) {
  const { rateLimits } = deps;
  const unknownHourly = Math.max(1, Math.floor(deps.perHour / 2));
  const knownHourly = Math.max(1, deps.perHour - unknownHourly);
  const budgets = {
    address: rateLimits({ name: 'pw-address', points: ATTEMPTS_PER_ADDRESS, windowSeconds: FIFTEEN_MINUTES }),
    unknownShort: rateLimits({
      name: 'pw-unknown-15m',
      points: Math.min(SHORT_WINDOW_FAILURES, unknownHourly),
      windowSeconds: FIFTEEN_MINUTES,
    }),
    unknownHourly: rateLimits({ name: 'pw-unknown-1h', points: unknownHourly, windowSeconds: HOUR }),
    deviceShort: rateLimits({
      name: 'pw-device-15m',
      points: Math.min(SHORT_WINDOW_FAILURES, knownHourly),
      windowSeconds: FIFTEEN_MINUTES,
    }),
    knownHourly: rateLimits({ name: 'pw-known-1h', points: knownHourly, windowSeconds: HOUR }),
  };

  /**
   * Runs `verify` (the hash check) if the budgets allow; throws 429 (Retry-After) when they do not.
   * `account` names the account (its id; for an unknown e-mail, the e-mail). Answers whether the
   * password was right and whether the presented device cookie is one of this account's.
   */
  return async function checkPassword(
    account: { key: string; userId: string | null },
    client: PasswordCheckClient,
    verify: () => Promise<boolean>,
  ): Promise<{ valid: boolean; knownDevice: boolean }> {
    const device = deps.verifyDevice(client.device);
    const knownDevice = device !== null && device.userId === account.userId;
    const failureBudgets = knownDevice
      ? ([
          [budgets.deviceShort, device.nonce],
          [budgets.knownHourly, account.key],
        ] as const)
      : ([
          [budgets.unknownShort, account.key],
          [budgets.unknownHourly, account.key],
        ] as const);
    const reserved = await reserveAll(
      [[budgets.address, client.ip], ...failureBudgets],
      authMessages.tooManyAttempts,
    );
    const valid = await verify();
    if (valid) {
      await Promise.all(failureBudgets.map(([limiter, key]) => limiter.refund(key)));
      return { valid, knownDevice };
    }
    // Repeated failures slow down before they are refused.
    const failures = reserved[1]?.consumed ?? 0;
    if (failures > 3) await sleep(Math.min(1000, (failures - 3) * 150));
    return { valid, knownDevice };
  };
}
