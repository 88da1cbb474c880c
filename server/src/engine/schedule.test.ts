import { describe, expect, it } from 'vitest';
import { catchUp, hash32, nextDueAfterPoll, nextGridPoint, phaseOf, startTime } from './schedule.ts';

const I = 60_000;

describe('schedule', () => {
  it('spreads phases over the interval', () => {
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < 10_000; i++) buckets[Math.floor(phaseOf(`alert-${i}`, I) / (I / 10))]++;
    for (const b of buckets) expect(b).toBeGreaterThan(800);
    expect(hash32('same')).toBe(hash32('same'));
  });

  it('finds the next grid point strictly after a time', () => {
    expect(nextGridPoint(0, 5000, I)).toBe(5000);
    expect(nextGridPoint(5000, 5000, I)).toBe(65_000);
    expect(nextGridPoint(64_999, 5000, I)).toBe(65_000);
  });

  it('keeps an aligned alert exactly one interval apart (no drift)', () => {
    const due = 10 * I + 7000;
    expect(nextDueAfterPoll(due, I, 7000, due + 1234)).toBe(due + I);
  });

  it('moves onto a new phase once, never closer than half an interval', () => {
    const due = 10 * I; // phase 0 so far; the request's phase is 10 s
    expect(nextDueAfterPoll(due, I, 10_000, due + 100)).toBe(due + I + 10_000);
    expect(nextDueAfterPoll(due, I, 40_000, due + 100)).toBe(due + 40_000);
  });

  it('skips windows missed while a poll ran long', () => {
    const due = 10 * I;
    expect(nextDueAfterPoll(due, I, 0, due + 2.5 * I)).toBe(due + 3 * I);
  });

  it('polls a late alert now, and reschedules one that missed more than its catch-up', () => {
    expect(catchUp(1000, 5000, 20_000, 30_000)).toEqual({ action: 'poll' });
    expect(catchUp(1000, 5000, 40_000, 30_000)).toEqual({ action: 'reschedule', nextDueMs: 41_000 });
    expect(catchUp(0, I, 90_000, 30_000)).toEqual({ action: 'reschedule', nextDueMs: 120_000 });
  });

  it('starts a poll at the first quantum at or after its due time, never before it', () => {
    expect(startTime(10_000, 250)).toBe(10_000);
    expect(startTime(10_001, 250)).toBe(10_250);
    expect(startTime(10_249, 250)).toBe(10_250);
    expect([10_010, 10_120, 10_249].map((due) => startTime(due, 250))).toEqual([10_250, 10_250, 10_250]);
    expect(startTime(10_123, 0)).toBe(10_123);
  });
});
