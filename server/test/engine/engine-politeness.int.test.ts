import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import {
  alertRow,
  createAlerts,
  createTemplate,
  type EngineApp,
  notificationsOf,
  pollRuns,
  rooms,
  startEngineApp,
  type Upstream,
  waitFor,
} from './engine-fixtures.ts';

/** Politeness toward upstreams: coalescing, the per-host concurrency limit, Retry-After. */
let world: EngineApp;
let t: TestApp;
let upstream: Upstream;
let planner: { userId: string; serviceId: string };
const HOST_LIMIT = 3;

beforeAll(async () => {
  world = await startEngineApp({
    env: { OUTBOUND_ALLOWLIST: '127.0.0.1,localhost', ENGINE_HOST_CONCURRENCY: String(HOST_LIMIT) },
    start: true,
  });
  ({ t, upstream, planner } = world);
});

afterAll(() => world?.close());

describe.concurrent('engine politeness', { timeout: 90_000 }, () => {
  it('coalesces 50 alerts with identical requests into about one upstream fetch per interval', async () => {
    upstream.set('/shared', { body: rooms(true, 300) });
    const templateId = await createTemplate(t.db, `${upstream.url}/shared`);
    const cheap = { all: [{ path: 'rooms[0].price', operator: 'lte' as const, value: 500 }] };
    const dear = { all: [{ path: 'rooms[0].price', operator: 'lte' as const, value: 10 }] };
    const ids = await createAlerts(
      t.db,
      planner,
      templateId,
      Array.from({ length: 50 }, (_, i) => ({
        watch: { ...(i % 2 === 0 ? cheap : dear), notifyOn: 'firstMatch' as const },
        query: { resort: 'LL', adults: 2 },
      })),
    );
    await waitFor(
      async () => (await Promise.all(ids.map((id) => pollRuns(t.db, id)))).every((runs) => runs.length >= 3),
      { what: 'three polls of every alert', timeoutMs: 60_000 },
    );
    const runs = await Promise.all(ids.map((id) => pollRuns(t.db, id)));
    const totalPolls = runs.reduce((n, r) => n + r.length, 0);
    const mostPolls = Math.max(...runs.map((r) => r.length));
    // One fetch per 5 s window, not one per alert (a window may split once at the edges).
    expect(upstream.hits('/shared')).toBeLessThanOrEqual(mostPolls + 1);
    expect(totalPolls).toBeGreaterThanOrEqual(150);

    // Each alert was judged by its own rules on the shared answer.
    for (const [i, id] of ids.entries()) {
      const matched = i % 2 === 0;
      expect(runs[i]!.every((r) => r.ok && r.matched === matched)).toBe(true);
      expect(await notificationsOf(t.db, id)).toHaveLength(matched ? 1 : 0);
      expect((await alertRow(t.db, id)).status).toBe(matched ? 'FIRING' : 'ACTIVE');
    }
  });

  it('never has more than the per-host limit of requests in flight', async () => {
    upstream.set('/slow', { body: rooms(false), delayMs: 300 });
    const templateId = await createTemplate(t.db, `${upstream.url}/slow`);
    const ids = await createAlerts(
      t.db,
      planner,
      templateId,
      Array.from({ length: 30 }, (_, i) => ({ query: { ref: i } })),
    );
    await waitFor(
      async () => (await Promise.all(ids.map((id) => pollRuns(t.db, id)))).every((runs) => runs.length >= 2),
      { what: 'two polls of every slow alert', timeoutMs: 60_000 },
    );
    expect(upstream.hits('/slow')).toBeGreaterThanOrEqual(60);
    // The 127.0.0.1 host (this test's and the coalescing test's requests) never had more at once.
    expect(upstream.peak(upstream.host)).toBeLessThanOrEqual(HOST_LIMIT);
    expect(upstream.peak(upstream.host)).toBe(HOST_LIMIT);
  });

  it('backs a host off after a 429 with Retry-After: later polls are deferred, not sent', async () => {
    upstream.set('/busy', {
      status: 429,
      headers: { 'retry-after': '3600' },
      body: { message: 'slow down' },
    });
    // Another name for the same loopback server: a host of its own for the limiter.
    const busyUrl = upstream.url.replace('127.0.0.1', 'localhost');
    const templateId = await createTemplate(t.db, `${busyUrl}/busy`);
    const [id] = await createAlerts(t.db, planner, templateId, [{}]);
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 3, { timeoutMs: 45_000 });
    const runs = await pollRuns(t.db, id!);
    expect(upstream.hits('/busy')).toBe(1);
    expect(runs[0]).toMatchObject({ ok: false, status_code: 429, error: 'Upstream answered 429.' });
    for (const deferred of runs.slice(1)) {
      expect(deferred.ok).toBe(false);
      expect(deferred.error).toContain('asked us to wait');
    }
    // Deferred polls are not the alert's failures: one failure so far, not ERROR.
    expect(await alertRow(t.db, id!)).toMatchObject({ status: 'ACTIVE', consecutive_errors: 1 });
  });
});
