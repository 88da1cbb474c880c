import { createProxyInput, updateProxyInput } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy, type TestProxy } from '../helpers/proxies.ts';
import {
  createAlerts,
  createTemplate,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  waitFor,
} from './engine-fixtures.ts';

/**
 * A change to the proxy pool takes effect on the next poll (docs/product.md, "Polling and rules"):
 * a proxy added while the engine runs carries the polls claimed after it, with no refresh period
 * during which they still go direct.
 */
let app: EngineApp;
let proxy: TestProxy;

beforeAll(async () => {
  proxy = await startConnectProxy();
  app = await startEngineApp({ start: true });
});

afterAll(async () => {
  await app?.close();
  await proxy?.close();
});

describe('engine: proxy pool changes', { timeout: 120_000 }, () => {
  it('polls through a proxy added a moment before, and directly once it is switched off', async () => {
    const { t, upstream, planner } = app;
    upstream.set('/pool', { body: rooms(false) });
    const templateId = await createTemplate(t.db, `${upstream.url}/pool`);
    // The engine has polled with an empty pool, so its rotation holds a fresh (empty) list.
    const [warm] = await createAlerts(t.db, planner, templateId, [{ query: { warm: 1 } }]);
    await waitFor(async () => (await pollRuns(t.db, warm!)).length >= 1, { what: 'a direct poll' });

    const added = await t.services.proxies.create(
      createProxyInput.parse({ host: '127.0.0.1', port: proxy.port, protocol: 'http' }),
    );
    const ids = await createAlerts(
      t.db,
      planner,
      templateId,
      Array.from({ length: 3 }, (_, i) => ({ query: { n: i } })),
    );
    for (const id of ids) {
      await waitFor(async () => (await pollRuns(t.db, id)).length >= 1, { what: 'a first poll' });
      expect((await pollRuns(t.db, id))[0]!.proxy_id).toBe(added.id);
    }

    await t.services.proxies.update(updateProxyInput.parse({ id: added.id, isActive: false }));
    const [after] = await createAlerts(t.db, planner, templateId, [{ query: { after: 1 } }]);
    await waitFor(async () => (await pollRuns(t.db, after!)).length >= 1, {
      what: 'a poll after switching off',
    });
    expect((await pollRuns(t.db, after!))[0]!.proxy_id).toBeNull();
  });
});
