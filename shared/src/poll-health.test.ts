import { describe, expect, it } from 'vitest';
import { evaluateWatch } from './evaluator.ts';
import {
  classifyAnswer,
  classifyFailure,
  DRIFTED_AFTER_POLLS,
  FAILING_AFTER_FAILURES,
  type HealthState,
  healthWords,
  nextHealth,
  pollClasses,
  pollClassWords,
} from './poll-health.ts';

const healthy: HealthState = { health: 'healthy', cause: null, consecutiveErrors: 0, driftCount: 0 };

describe('poll classification', () => {
  it('tells refusals, upstream errors and unusable answers apart', () => {
    for (const code of [401, 403, 407, 429, 451])
      expect(classifyAnswer({ statusCode: code })).toBe('refused');
    expect(classifyAnswer({ statusCode: 503 })).toBe('upstream_error');
    expect(classifyAnswer({ statusCode: 500 })).toBe('upstream_error');
    expect(classifyAnswer({ statusCode: 200, contentType: 'text/html; charset=utf-8', isJson: false })).toBe(
      'refused',
    );
    expect(classifyAnswer({ statusCode: 200, contentType: 'text/plain', isJson: false })).toBe(
      'invalid_answer',
    );
    expect(classifyAnswer({ statusCode: 200, isJson: true })).toBeNull();
  });

  it('names outbound failures by their kind', () => {
    expect(classifyFailure('timeout')).toBe('timeout');
    expect(classifyFailure('network')).toBe('network');
    expect(classifyFailure('proxy')).toBe('proxy');
    expect(classifyFailure('too_large')).toBe('invalid_answer');
    expect(classifyFailure(null)).toBe('other_error');
  });

  it('has words for every class', () => {
    for (const c of pollClasses) expect(pollClassWords[c].length).toBeGreaterThan(3);
  });
});

describe('drift in the evaluator', () => {
  const rule = { all: [{ path: 'rooms[*].available', operator: 'equals' as const, value: true }], any: [] };
  it('flags a rule path absent from the answer, not an empty list', () => {
    expect(evaluateWatch(rule, { rooms: [] }).results[0]!.pathMissing).toBeFalsy();
    expect(evaluateWatch(rule, { data: { rooms: [] } }).results[0]!.pathMissing).toBe(true);
    const plain = { all: [{ path: 'count', operator: 'gt' as const, value: 0 }], any: [] };
    expect(evaluateWatch(plain, { total: 2 }).results[0]!.pathMissing).toBe(true);
    const first = {
      all: [{ path: 'rooms[0].available', operator: 'equals' as const, value: true }],
      any: [],
    };
    expect(evaluateWatch(first, { rooms: [] }).results[0]!.pathMissing).toBeFalsy();
    expect(evaluateWatch(first, { hotels: [] }).results[0]!.pathMissing).toBe(true);
    // `exists` asks whether the path is there: its absence is the answer, not drift.
    const exists = { all: [{ path: 'offer', operator: 'exists' as const }], any: [] };
    expect(evaluateWatch(exists, {}).results[0]!.pathMissing).toBeFalsy();
  });
});

describe('alert health', () => {
  it('degrades on a failure and fails after K in a row, then recovers on a good answer', () => {
    let s = healthy;
    for (let i = 1; i < FAILING_AFTER_FAILURES; i++) {
      s = nextHealth(s, 'refused', FAILING_AFTER_FAILURES, DRIFTED_AFTER_POLLS);
      expect(s.health).toBe('degraded');
    }
    s = nextHealth(s, 'refused', FAILING_AFTER_FAILURES, DRIFTED_AFTER_POLLS);
    expect(s).toMatchObject({
      health: 'failing',
      cause: 'refused',
      consecutiveErrors: FAILING_AFTER_FAILURES,
    });
    expect(nextHealth(s, 'deferred', 3, 3)).toEqual(s);
    // Restarted (the count reset), it stays failing until a good answer.
    expect(nextHealth({ ...s, consecutiveErrors: 0 }, 'timeout', 3, 3).health).toBe('failing');
    expect(nextHealth(s, 'not_matched', 3, 3)).toEqual(healthy);
  });

  it('drifts after N answers without the rule path and clears on a normal answer', () => {
    let s = healthy;
    for (let i = 1; i < DRIFTED_AFTER_POLLS; i++) s = nextHealth(s, 'drift', 3, DRIFTED_AFTER_POLLS);
    expect(s.health).toBe('degraded');
    s = nextHealth(s, 'drift', 3, DRIFTED_AFTER_POLLS);
    expect(s).toMatchObject({ health: 'drifted', cause: 'drift' });
    expect(nextHealth(s, 'matched', 3, 3)).toEqual(healthy);
  });

  it('says each health in words', () => {
    expect(healthWords('failing', 'refused')).toMatch(/refused/i);
    expect(healthWords('healthy', null)).toBe('Healthy');
  });
});
