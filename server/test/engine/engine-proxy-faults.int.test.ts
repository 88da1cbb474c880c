import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { createEngineFromServices } from '../../src/engine/start-engine.ts';
import type { TestApp } from '../helpers/app.ts';
import { startConnectProxy, startDroppingProxy } from '../helpers/proxies.ts';
import {
  alertRow,
  createAlerts,
  createTemplate,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  type Upstream,
  waitFor,
} from './engine-fixtures.ts';

/**
 * A proxy that drops the CONNECT line costs one bounded attempt per poll
 * (no reconnect storm) and counts as a proxy failure; deleting a proxy while polls hold tunnels
 * through it loses no poll outcome.
 */
let world: EngineApp;
let t: TestApp;
let engine: Engine;
let upstream: Upstream;

beforeAll(async () => {
  world = await startEngineApp({ env: { OUTBOUND_TIMEOUT_MS: '3000' } });
  ({ t, engine, upstream } = world);
});
afterAll(async () => {
  await engine?.stop();
  await world?.close();
});

describe('engine proxy faults', { timeout: 90_000 }, () => {
  it('a proxy that drops the CONNECT line gets at most 2 connections per poll, fails and is disabled', async () => {
    const dropping = await startDroppingProxy();
    try {
      const [proxy] = await t.db
        .insertInto('proxies')
        .values({ host: dropping.host, port: dropping.port, protocol: 'http' })
        .returning('id')
        .execute();
      upstream.set('/dropped', { body: rooms(false) });
      const { planner } = world;
      const templateId = await createTemplate(t.db, `${upstream.url}/dropped`, 'Dropped tunnel');
      // Five distinct requests due together: five polls through the proxy, five failures.
      const ids = await createAlerts(
        t.db,
        planner,
        templateId,
        Array.from({ length: 5 }, (_, i) => ({ query: { ref: i } })),
      );
      await engine.start();
      const row = await waitFor(
        async () => {
          const r = await t.db
            .selectFrom('proxies')
            .selectAll()
            .where('id', '=', proxy!.id)
            .executeTakeFirst();
          return r && !r.is_active ? r : null;
        },
        { what: 'the dropping proxy to be disabled' },
      );
      expect(row.consecutive_failures).toBeGreaterThanOrEqual(5);
      expect(row.last_failure_reason).toMatch(/proxy/i);
      // The five failed polls are written back (the write-back batches them a moment later).
      const viaProxy = await waitFor(
        async () => {
          const runs = (await Promise.all(ids.map((id) => pollRuns(t.db, id))))
            .flat()
            .filter((r) => r.proxy_id === proxy!.id);
          return runs.length >= 5 ? runs : null;
        },
        { what: 'the polls through the dropping proxy to be written back' },
      );
      expect(viaProxy.every((r) => !r.ok && r.error)).toBe(true);
      // Each alert's last run is recorded, with the proxy's failure as its error.
      for (const id of ids) {
        const alert = await waitFor(async () => {
          const a = await alertRow(t.db, id);
          return a.last_run_at ? a : null;
        });
        expect(alert.last_error ?? '').not.toBe('');
      }
      // One bounded attempt per poll: no reconnect loop (it made thousands a second).
      expect(dropping.connections).toBeLessThanOrEqual(2 * viaProxy.length);
      // After the disable, polls go direct and succeed.
      await waitFor(
        async () =>
          (await Promise.all(ids.map((id) => pollRuns(t.db, id)))).every((runs) =>
            runs.some((r) => r.ok && r.proxy_id === null),
          ),
        { what: 'direct polls after the disable' },
      );
    } finally {
      await engine.stop();
      await dropping.close();
    }
  });

  it('deleting a proxy mid-poll loses no poll outcome', async () => {
    const proxyServer = await startConnectProxy();
    try {
      engine = createEngineFromServices(t.services);
      const [proxy] = await t.db
        .insertInto('proxies')
        .values({ host: proxyServer.host, port: proxyServer.port, protocol: 'http' })
        .returning('id')
        .execute();
      upstream.set('/slow', { body: rooms(false), delayMs: 1500 });
      const { planner } = world;
      const templateId = await createTemplate(t.db, `${upstream.url}/slow`, 'Slow through a proxy');
      const ids = await createAlerts(
        t.db,
        planner,
        templateId,
        Array.from({ length: 20 }, (_, i) => ({ query: { ref: i }, interval: 60 })),
      );
      await engine.start();
      // Polls hold tunnels through the proxy; then an admin deletes it.
      await waitFor(() => proxyServer.connections >= 5, { what: 'tunnels through the proxy' });
      const deletedAt = Date.now();
      const removed = await t.db.deleteFrom('proxies').where('id', '=', proxy!.id).executeTakeFirst();
      expect(Number(removed.numDeletedRows)).toBe(1);
      // Every alert's poll is written back: a run each, the proxy forgotten, the alert rescheduled.
      await waitFor(
        async () =>
          (await Promise.all(ids.map((id) => pollRuns(t.db, id)))).every((runs) => runs.length >= 1),
        { what: 'a written poll run for each of the 20 alerts', timeoutMs: 20_000 },
      );
      for (const id of ids) {
        const [run] = await pollRuns(t.db, id);
        expect(run!.ok).toBe(true);
        if (run!.finished_at.getTime() > deletedAt) expect(run!.proxy_id).toBeNull();
        const alert = await alertRow(t.db, id);
        expect(alert.last_run_at).not.toBeNull();
        expect(alert.claim_token).toBeNull();
      }
    } finally {
      await engine.stop();
      await proxyServer.close();
    }
  });
});
