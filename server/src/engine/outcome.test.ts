import { describe, expect, it } from 'vitest';
import { type AlertState, decideOutcome, type PollResult } from './outcome.ts';

const now = new Date('2030-06-01T10:00:00Z');
const base: AlertState = {
  status: 'ACTIVE',
  lastMatched: false,
  lastValues: null,
  lastNotifiedAt: null,
  consecutiveErrors: 0,
  notifyOn: 'firstMatch',
  notifyOnResolved: false,
  debounceSeconds: 0,
};
const answered = (matched: boolean): PollResult => ({
  kind: 'answered',
  statusCode: 200,
  evaluation: { matched, values: { price: 1 }, results: [] },
});
const failed: PollResult = { kind: 'failed', statusCode: 503, error: 'Upstream answered 503' };

describe('decideOutcome', () => {
  it('firstMatch notifies on the change to matching only', () => {
    const first = decideOutcome(base, answered(true), now, 3);
    expect(first).toMatchObject({ status: 'FIRING', notify: 'MATCH', lastMatched: true });
    const again = decideOutcome({ ...base, status: 'FIRING', lastMatched: true }, answered(true), now, 3);
    expect(again.notify).toBeNull();
  });

  it('everyMatch notifies on every matching poll', () => {
    const state = { ...base, notifyOn: 'everyMatch' as const, status: 'FIRING', lastMatched: true };
    expect(decideOutcome(state, answered(true), now, 3).notify).toBe('MATCH');
  });

  it('notifies on resolution only with notifyOnResolved', () => {
    const firing = { ...base, status: 'FIRING', lastMatched: true };
    expect(decideOutcome(firing, answered(false), now, 3)).toMatchObject({ status: 'ACTIVE', notify: null });
    expect(decideOutcome({ ...firing, notifyOnResolved: true }, answered(false), now, 3).notify).toBe(
      'RESOLVED',
    );
  });

  it('debounce suppresses a notification too close to the previous one', () => {
    const state = { ...base, debounceSeconds: 60, lastNotifiedAt: new Date(now.getTime() - 30_000) };
    expect(decideOutcome(state, answered(true), now, 3)).toMatchObject({ notify: null, debounced: true });
    const later = { ...state, lastNotifiedAt: new Date(now.getTime() - 61_000) };
    expect(decideOutcome(later, answered(true), now, 3).notify).toBe('MATCH');
  });

  it('turns ERROR after repeated failures and back on the next answer', () => {
    let state: AlertState = { ...base, status: 'FIRING', lastMatched: true };
    for (let i = 1; i <= 3; i++) {
      const o = decideOutcome(state, failed, now, 3);
      expect(o.status).toBe(i < 3 ? 'FIRING' : 'ERROR');
      expect(o.lastMatched).toBe(true);
      state = { ...state, status: o.status, consecutiveErrors: o.consecutiveErrors };
    }
    expect(decideOutcome(state, answered(false), now, 3)).toMatchObject({
      status: 'ACTIVE',
      consecutiveErrors: 0,
      completed: true,
    });
  });

  it('a deferred poll changes nothing and does not count as completed', () => {
    const o = decideOutcome(base, { kind: 'deferred', error: 'backing off' }, now, 3);
    expect(o).toMatchObject({ status: 'ACTIVE', consecutiveErrors: 0, completed: false, notify: null });
  });

  it('classifies each poll and keeps the alert health: failing after K failures, drifted after N', () => {
    const refused: PollResult = { ...failed, statusCode: 403, pollClass: 'refused' };
    let state: AlertState = base;
    for (let i = 1; i <= 3; i++) {
      const o = decideOutcome(state, refused, now, 3, 2);
      expect(o).toMatchObject({ pollClass: 'refused', health: i < 3 ? 'degraded' : 'failing' });
      expect(o.healthCause).toBe('refused');
      state = { ...state, ...o };
    }
    const drifting: PollResult = {
      kind: 'answered',
      statusCode: 200,
      evaluation: {
        matched: false,
        values: {},
        results: [{ ...answered(false), pathMissing: true } as never],
      },
    };
    const first = decideOutcome(state, drifting, now, 3, 2);
    expect(first).toMatchObject({ pollClass: 'drift', health: 'degraded', driftCount: 1, success: false });
    const second = decideOutcome({ ...state, ...first }, drifting, now, 3, 2);
    expect(second).toMatchObject({ health: 'drifted', healthCause: 'drift' });
    expect(decideOutcome({ ...state, ...second }, answered(false), now, 3, 2)).toMatchObject({
      pollClass: 'not_matched',
      health: 'healthy',
      healthCause: null,
      driftCount: 0,
      success: true,
    });
  });
});
