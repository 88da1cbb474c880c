import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import type { TestApp } from '../helpers/app.ts';
import { startConnectProxy, type TestProxy } from '../helpers/proxies.ts';
import {
  createAlerts,
  createTemplate,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  type Upstream,
  waitFor,
} from './engine-fixtures.ts';

/** Proxies: rotation over the active ones, bookkeeping per attempt, auto-disable at 5 failures. */
let world: EngineApp;
let t: TestApp;
let engine: Engine;
let upstream: Upstream;
let goodProxy: TestProxy;
let deadPort: number;

beforeAll(async () => {
  goodProxy = await startConnectProxy();
  // A port that refuses connections: a proxy that is down.
  const probe = net.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  deadPort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  world = await startEngineApp();
  ({ t, engine, upstream } = world);
});

afterAll(async () => {
  await world?.close();
  await goodProxy?.close();
});

describe('engine proxies', { timeout: 90_000 }, () => {
  it('disables a proxy after 5 consecutive failures and polls through another', async () => {
    const [dead, good] = await t.db
      .insertInto('proxies')
      .values([
        { host: '127.0.0.1', port: deadPort, protocol: 'http' },
        { host: '127.0.0.1', port: goodProxy.port, protocol: 'http' },
      ])
      .returning('id')
      .execute();
    upstream.set('/via-proxy', { body: rooms(false) });
    const templateId = await createTemplate(t.db, `${upstream.url}/via-proxy`);
    // Twelve distinct requests due together: the rotation sends about half through each proxy.
    const ids = await createAlerts(
      t.db,
      world.planner,
      templateId,
      Array.from({ length: 12 }, (_, i) => ({ query: { ref: i } })),
    );
    await engine.start();

    const deadRow = await waitFor(
      async () => {
        const row = await t.db
          .selectFrom('proxies')
          .selectAll()
          .where('id', '=', dead!.id)
          .executeTakeFirst();
        return row && !row.is_active ? row : null;
      },
      { what: 'the dead proxy to be disabled' },
    );
    expect(deadRow.consecutive_failures).toBeGreaterThanOrEqual(5);
    expect(deadRow.auto_disabled_at).not.toBeNull();
    expect(deadRow.last_failure_reason).toBeTruthy();

    // Every alert's next poll goes through the good proxy and succeeds.
    const disabledAt = deadRow.auto_disabled_at!.getTime();
    await waitFor(
      async () =>
        (await Promise.all(ids.map((id) => pollRuns(t.db, id)))).every((runs) =>
          runs.some((r) => r.started_at.getTime() > disabledAt && r.ok),
        ),
      { what: 'a good poll of every alert after the disable', timeoutMs: 45_000 },
    );
    const later = (await Promise.all(ids.map((id) => pollRuns(t.db, id))))
      .flat()
      .filter((r) => r.started_at.getTime() > disabledAt);
    expect(later.every((r) => r.proxy_id === good!.id && r.ok)).toBe(true);
    const goodRow = await t.db
      .selectFrom('proxies')
      .selectAll()
      .where('id', '=', good!.id)
      .executeTakeFirstOrThrow();
    expect(goodRow.success_count).toBeGreaterThanOrEqual(12);
    expect(goodRow.consecutive_failures).toBe(0);
    expect(goodProxy.destinations.every((d) => d === new URL(upstream.url).host)).toBe(true);
  });
});
