import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from './retry-after.ts';

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('reads delta-seconds and HTTP dates as milliseconds from now', () => {
    expect(parseRetryAfterMs('7', now)).toBe(7000);
    expect(parseRetryAfterMs(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfterMs('Tue, 01 Jan 2030 00:00:10 GMT', now)).toBe(10_000);
  });

  it('answers 0 for a date already past and null for nothing readable', () => {
    expect(parseRetryAfterMs('Mon, 31 Dec 2029 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
    expect(parseRetryAfterMs('  ', now)).toBeNull();
    expect(parseRetryAfterMs('soon', now)).toBeNull();
  });
});
