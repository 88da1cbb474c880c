import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createCoalescer } from './coalescer.ts';
import { createHostLimiter, HostBackoffError, HostBusyError, retryAfterMs } from './host-limiter.ts';

describe('host limiter', () => {
  it('never runs more than the concurrency limit against one host', async () => {
    const limiter = createHostLimiter({
      limits: () => ({ concurrency: 3, ratePerSecond: 100_000, queue: 100 }),
    });
    let active = 0;
    let peak = 0;
    const task = async () => {
      active++;
      peak = Math.max(peak, active);
      await sleep(5);
      active--;
    };
    await Promise.all(Array.from({ length: 30 }, () => limiter.run('a:80', task)));
    expect(peak).toBe(3);
    expect(limiter.figures().hosts).toBe(0);
  });

  it("refuses a request beyond the host's queue and keeps other hosts' turns", async () => {
    const limiter = createHostLimiter({
      limits: () => ({ concurrency: 1, ratePerSecond: 100_000, queue: 2 }),
    });
    let release: () => void = () => {};
    const hanging = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = [0, 1, 2].map(() => limiter.run('slow:80', () => hanging));
    await expect(limiter.run('slow:80', async () => 'sent')).rejects.toBeInstanceOf(HostBusyError);
    await expect(limiter.run('fast:80', async () => 'sent')).resolves.toBe('sent');
    release();
    await Promise.all(held);
  });

  it('spaces requests to the rate limit', async () => {
    let t = 0;
    const limiter = createHostLimiter({
      limits: () => ({ concurrency: 100, ratePerSecond: 10, queue: 100 }),
      now: () => t,
    });
    const started: number[] = [];
    const runs = Array.from({ length: 3 }, () => limiter.run('a:80', async () => started.push(t)));
    await sleep(0);
    expect(started).toEqual([0]);
    t = 100;
    await sleep(120);
    expect(started.length).toBeGreaterThanOrEqual(2);
    t = 300;
    await sleep(120);
    await Promise.all(runs);
    expect(started).toHaveLength(3);
  });

  it('defers requests to a host that asked us to wait', async () => {
    let t = 1000;
    const limiter = createHostLimiter({
      limits: () => ({ concurrency: 2, ratePerSecond: 100, queue: 100 }),
      now: () => t,
    });
    limiter.backOff('a:80', 5000);
    await expect(limiter.run('a:80', async () => 1)).rejects.toBeInstanceOf(HostBackoffError);
    expect(await limiter.run('b:80', async () => 2)).toBe(2);
    t = 6001;
    expect(await limiter.run('a:80', async () => 3)).toBe(3);
  });

  it('reads Retry-After as seconds or a date, and defaults a bare 429', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs(429, '7', now)).toBe(7000);
    expect(retryAfterMs(503, 'Tue, 01 Jan 2030 00:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs(429, undefined, now)).toBe(30_000);
    expect(retryAfterMs(503, undefined, now)).toBeNull();
    expect(retryAfterMs(200, '5', now)).toBeNull();
  });
});

describe('coalescer', () => {
  it('shares one fetch among identical requests within the window', async () => {
    let t = 0;
    const coalescer = createCoalescer<number>({ windowMs: 1000, now: () => t });
    let fetches = 0;
    const fetch = async () => ++fetches;
    const a = coalescer.share('k', 'alert-a', fetch);
    const b = coalescer.share('k', 'alert-b', fetch);
    expect(await a.promise).toBe(1);
    expect(await b.promise).toBe(1);
    expect([a.shared, b.shared]).toEqual([false, true]);
    t = 500;
    expect(await coalescer.share('k', 'alert-c', fetch).promise).toBe(1);
    t = 1600;
    expect(await coalescer.share('k', 'alert-c', fetch).promise).toBe(2);
    expect(await coalescer.share('other', 'alert-a', fetch).promise).toBe(3);
  });

  it('drops every answer once its window has passed', async () => {
    const coalescer = createCoalescer<number>({ windowMs: 20 });
    let fetches = 0;
    const fetch = async () => ++fetches;
    await Promise.all(['a', 'b', 'c'].map((k) => coalescer.share(k, 'alert-1', fetch).promise));
    await coalescer.share('a', 'alert-2', fetch).promise;
    expect(coalescer.figures()).toEqual({ entries: 3, shared: 1 });
    // Waits for the drops themselves (the test's timeout bounds it), not for a guessed time.
    while (coalescer.figures().entries > 0) await sleep(5);
    expect(await coalescer.share('a', 'alert-3', fetch).promise).toBe(4);
  });

  it('never hands one consumer the same answer twice', async () => {
    const coalescer = createCoalescer<number>({ windowMs: 1000, now: () => 0 });
    let fetches = 0;
    const fetch = async () => ++fetches;
    expect(await coalescer.share('k', 'alert-a', fetch).promise).toBe(1);
    expect(await coalescer.share('k', 'alert-a', fetch).promise).toBe(2);
    expect(await coalescer.share('k', 'alert-b', fetch).promise).toBe(2);
  });
});
