import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRests, restKeyOf } from './delivery-rests.ts';

afterEach(() => vi.useRealTimers());

describe('delivery rests', () => {
  it('rests a service on a shared provider, and a webhook by its origin', () => {
    const row = { destination: 'https://hooks.slack.com', serviceId: 's-1' };
    expect(restKeyOf({ ...row, type: 'SLACK_WEBHOOK' })).toEqual({ kind: 'service', id: 's-1' });
    expect(restKeyOf({ ...row, type: 'EMAIL', destination: 'smtp' })).toEqual({ kind: 'service', id: 's-1' });
    expect(restKeyOf({ ...row, type: 'SMS', destination: 'sms' })).toEqual({ kind: 'service', id: 's-1' });
    expect(restKeyOf({ ...row, type: 'WEBHOOK', destination: 'https://me.example' })).toEqual({
      kind: 'destination',
      id: 'https://me.example',
    });
  });

  it('doubles a rest from 0.5 s to 30 s, says when one ends, and ends it at a success', () => {
    vi.useFakeTimers();
    const ended = vi.fn();
    const rests = createRests(ended);
    const key = { kind: 'service', id: 's-1' } as const;
    const other = { kind: 'service', id: 's-2' } as const;
    const lengths: number[] = [];
    for (let i = 0; i < 8; i++) {
      const now = Date.now();
      rests.failed(key, now);
      let ms = 0;
      while (rests.resting(key, now + ms)) ms += 100;
      lengths.push(ms);
    }
    expect(lengths).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(rests.resting(other, Date.now())).toBe(false);
    expect(rests.restingNow(Date.now())).toEqual({ services: ['s-1'], destinations: [] });
    vi.advanceTimersByTime(30_000);
    expect(ended).toHaveBeenCalledTimes(1);
    rests.failed(key, Date.now());
    rests.succeeded(key);
    expect(rests.resting(key, Date.now())).toBe(false);
    rests.failed(key, Date.now());
    expect(rests.resting(key, Date.now() + 499)).toBe(true);
    expect(rests.resting(key, Date.now() + 500)).toBe(false);
    rests.stop();
    vi.advanceTimersByTime(60_000);
    expect(ended).toHaveBeenCalledTimes(1);
  });
});
