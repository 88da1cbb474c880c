import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { nextDelaySeconds, nominalDelaySeconds, retryPolicyFromConfig } from './retry-schedule.ts';

const defaults = retryPolicyFromConfig(loadConfig({}));

function schedule(random: () => number): number[] {
  const delays: number[] = [];
  for (let attempt = 1; ; attempt++) {
    const d = nextDelaySeconds(defaults, attempt, { random });
    if (d === null) return delays;
    delays.push(d);
  }
}

describe('delivery retry schedule', () => {
  it('makes 8 attempts over more than a day by default, even with the least jitter', () => {
    const least = schedule(() => 0);
    expect(least).toHaveLength(7);
    expect(least).toEqual([5, 40, 320, 2560, 20480, 36000, 36000]);
    expect(least.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3600);
  });

  it('adds up to 20 % jitter to each delay', () => {
    const most = schedule(() => 0.999999);
    most.forEach((d, i) => {
      const nominal = nominalDelaySeconds(defaults, i + 1);
      expect(d).toBeGreaterThan(nominal);
      expect(d).toBeLessThanOrEqual(nominal * 1.2);
    });
  });

  it('never retries sooner than a Retry-After asked, and stops after the last attempt', () => {
    expect(nextDelaySeconds(defaults, 1, { retryAfterSeconds: 120, random: () => 0 })).toBe(120);
    expect(nextDelaySeconds(defaults, 3, { retryAfterSeconds: 10, random: () => 0 })).toBe(320);
    expect(nextDelaySeconds(defaults, 8, { retryAfterSeconds: 10 })).toBeNull();
  });
});
