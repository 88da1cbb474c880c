import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAlerts,
  createTemplate,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  startUpstream,
  type Upstream,
  waitFor,
} from './engine-fixtures.ts';

/**
 * A host's politeness limits hold only that host's work (docs/product.md, "Polling and rules"): a
 * host that accepts connections and never answers, with hundreds of alerts, leaves the engine's
 * poll slots to the alerts of a healthy host.
 */
let app: EngineApp;
let t: EngineApp['t'];
let hanging: Upstream;
let healthy: Upstream;

beforeAll(async () => {
  hanging = await startUpstream();
  app = await startEngineApp({
    // Few slots, so that a hanging host could hold them all; requests that never time out here.
    env: { ENGINE_CONCURRENCY: '16', ENGINE_HOST_CONCURRENCY: '4', OUTBOUND_TIMEOUT_MS: '120000' },
  });
  ({ t, upstream: healthy } = app);
});

afterAll(async () => {
  // The hanging host goes first: its open requests fail at once and the engine stops promptly.
  await hanging?.close();
  await app?.close();
});

describe('engine: a hanging host', { timeout: 150_000 }, () => {
  it('starves no alert of a healthy host', async () => {
    hanging.set('/hang', { body: rooms(true), delayMs: 600_000 });
    healthy.set('/healthy', { body: rooms(false) });
    const { planner } = app;
    const hangingTemplate = await createTemplate(t.db, `${hanging.url}/hang`);
    const healthyTemplate = await createTemplate(t.db, `${healthy.url}/healthy`);
    await createAlerts(
      t.db,
      planner,
      hangingTemplate,
      Array.from({ length: 400 }, (_, i) => ({ query: { n: i }, interval: 60 })),
    );
    await app.engine.start();
    await waitFor(() => hanging.peak(hanging.host) >= 4, {
      what: 'the hanging host holding its requests',
      timeoutMs: 60_000,
    });
    const ids = await createAlerts(
      t.db,
      planner,
      healthyTemplate,
      Array.from({ length: 3 }, (_, i) => ({ query: { n: i }, interval: 5 })),
    );
    const answered = async (id: string) => (await pollRuns(t.db, id)).filter((r) => r.ok).length;
    await waitFor(async () => (await Promise.all(ids.map(answered))).every((n) => n >= 4), {
      what: 'four answered polls of each healthy alert',
      timeoutMs: 90_000,
    });
    // No window of a healthy alert was skipped for want of a slot: after its first poll moves it onto
    // its phase, its polls are due one interval apart (a poll held past its next window skips it).
    for (const id of ids) {
      const due = (await pollRuns(t.db, id)).map((r) => r.due_at.getTime());
      const gaps = due.slice(2).map((at, i) => at - due[i + 1]!);
      expect(gaps.length).toBeGreaterThanOrEqual(2);
      expect(gaps).toEqual(gaps.map(() => 5000));
    }
    // The hanging host's requests are still open: nothing it holds was freed to let the healthy ones through.
    expect(hanging.hits('/hang')).toBeGreaterThanOrEqual(4);
    expect(hanging.peak(hanging.host)).toBeLessThanOrEqual(4);
  });
});
