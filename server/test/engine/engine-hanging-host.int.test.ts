import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { createEngineFromServices } from '../../src/engine/start-engine.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  createAlerts,
  createPlanner,
  createTemplate,
  pollRuns,
  rooms,
  startUpstream,
  type Upstream,
  waitFor,
} from './engine-fixtures.ts';

/**
 * A host's politeness limits hold only that host's work (docs/product.md, "Polling and rules"): a
 * host that accepts connections and never answers, with hundreds of alerts, leaves the engine's
 * poll slots to the alerts of a healthy host.
 */
let t: TestApp;
let engine: Engine;
let hanging: Upstream;
let healthy: Upstream;

beforeAll(async () => {
  hanging = await startUpstream();
  healthy = await startUpstream();
  t = await startTestApp({
    boss: true,
    env: {
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      ENGINE_TICK_MS: '50',
      ENGINE_LOOKAHEAD_MS: '200',
      // Few slots, so that a hanging host could hold them all; requests that never time out here.
      ENGINE_CONCURRENCY: '16',
      ENGINE_HOST_CONCURRENCY: '4',
      OUTBOUND_TIMEOUT_MS: '120000',
    },
  });
  engine = createEngineFromServices(t.services);
});

afterAll(async () => {
  // The hanging host goes first: its open requests fail at once and the engine stops promptly.
  await hanging?.close();
  await engine?.stop();
  await t?.close();
  await healthy?.close();
});

describe('engine: a hanging host', { timeout: 150_000 }, () => {
  it('starves no alert of a healthy host', async () => {
    hanging.set('/hang', { body: rooms(true), delayMs: 600_000 });
    healthy.set('/healthy', { body: rooms(false) });
    const planner = await createPlanner(t.db, 'http://127.0.0.1:9/unused');
    const hangingTemplate = await createTemplate(t.db, `${hanging.url}/hang`);
    const healthyTemplate = await createTemplate(t.db, `${healthy.url}/healthy`);
    await createAlerts(
      t.db,
      planner,
      hangingTemplate,
      Array.from({ length: 400 }, (_, i) => ({ query: { n: i }, interval: 60 })),
    );
    await engine.start();
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
    const started = Date.now();
    const answered = async (id: string) => (await pollRuns(t.db, id)).filter((r) => r.ok).length;
    await waitFor(async () => (await Promise.all(ids.map(answered))).every((n) => n >= 4), {
      what: 'four answered polls of each healthy alert',
      timeoutMs: 90_000,
    });
    // Every due time that passed was polled (one may be in flight), and the hanging host's requests
    // are still open: nothing it holds was freed to let the healthy ones through.
    const dueTimesPassed = Math.floor((Date.now() - started) / 5000) + 1;
    for (const id of ids) expect(await answered(id)).toBeGreaterThanOrEqual(dueTimesPassed - 1);
    expect(hanging.hits('/hang')).toBeGreaterThanOrEqual(4);
    expect(hanging.peak(hanging.host)).toBeLessThanOrEqual(4);
  });
});
