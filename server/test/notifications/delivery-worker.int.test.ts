import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startDeliveryWorker } from '../../src/modules/notifications/delivery-worker.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/receivers.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';
import { createAlertLinkedTo, createService } from './fixtures.ts';

/**
 * The delivery worker under load and faults, on real PostgreSQL with real loopback receivers:
 * a burst delivered exactly once, a slow destination that holds back only itself, and a process
 * killed with SIGKILL while it holds deliveries (docs/decisions.md, "[delivery]").
 */

interface Hit {
  path: string;
  webhookId: string;
  at: number;
  res: ServerResponse;
}

/** A loopback webhook receiver that records every request and answers as `answer` decides (or holds it). */
async function startReceiver(answer: (hit: Hit) => 'ok' | 'hold' = () => 'ok') {
  const hits: Hit[] = [];
  let connections = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      const hit = { path: req.url ?? '', webhookId: String(req.headers['webhook-id']), at: Date.now(), res };
      hits.push(hit);
      if (answer(hit) === 'ok') res.writeHead(200).end('ok');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    connections: () => connections,
    /** Answers every held request 200. */
    releaseAll() {
      for (const h of hits) if (!h.res.headersSent) h.res.writeHead(200).end('ok');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A planner with one webhook service at `url`, linked to `alerts` fresh alerts. */
async function plannerWithAlerts(t: TestApp, url: string, alerts: number) {
  const user = await createUser(t);
  const service = await createService(t, user, { type: 'WEBHOOK', label: url, config: { url } });
  const ids: string[] = [];
  for (let i = 0; i < alerts; i++) ids.push((await createAlertLinkedTo(t, user, [service.id])).alertId);
  return { user, service, alertIds: ids };
}

/** One match per alert, all at once (the engine hands a write-back batch over in one call). */
async function burst(t: TestApp, user: TestUser, alertIds: string[], tag: string) {
  await t.services.notifications.createNotifications(
    alertIds.map((alertId) => ({
      userId: user.id,
      alertId,
      eventKey: `${tag}-${alertId}`,
      kind: 'MATCH',
      message: `Rooms open (${tag})`,
    })),
  );
}

function deliveriesOfService(t: TestApp, serviceId: string) {
  return t.db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('notification_service_id', '=', serviceId)
    .execute();
}

describe('the delivery worker', () => {
  let t: TestApp;
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('delivers a burst of 200 matches exactly once each, over kept-alive connections', async () => {
    t = await startTestApp({
      deliveries: true,
      // A long timeout: the slow receiver's held requests must not time out (and be retried) mid-test.
      env: { OUTBOUND_ALLOWLIST: '127.0.0.1', DELIVERY_HOST_CONCURRENCY: '8', DELIVERY_TIMEOUT_MS: '60000' },
    });
    closers.push(() => t.close());
    const receiver = await startReceiver();
    closers.push(() => receiver.close());
    const { user, service, alertIds } = await plannerWithAlerts(t, `${receiver.url}/burst`, 200);

    await burst(t, user, alertIds, 'burst');
    const rows = await waitFor(async () => {
      const r = await deliveriesOfService(t, service.id);
      return r.length === 200 && r.every((d) => d.status === 'SUCCESS') && r;
    }, '200 deliveries recorded');

    // The receiver counts webhook ids: each delivery's id arrived once, and nothing else did.
    const counts = new Map<string, number>();
    for (const h of receiver.hits) counts.set(h.webhookId, (counts.get(h.webhookId) ?? 0) + 1);
    expect(receiver.hits).toHaveLength(200);
    expect([...counts.keys()].sort()).toEqual(rows.map((d) => d.id).sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(rows.every((d) => d.attempts === 1 && d.claim_token === null && d.dispatched_at !== null)).toBe(
      true,
    );
    // Connections are kept alive and reused: about the per-destination cap of them (undici may open
    // one more while another is handed back), not one per delivery.
    console.log(`[delivery] 200 deliveries over ${receiver.connections()} connections (cap 8 at once)`);
    expect(receiver.connections()).toBeLessThan(50);

    // The health figures show the outbox drained and the last minute's deliveries.
    const health = await t.request({ method: 'GET', url: '/api/health' });
    expect(health.json<{ data: { deliveries: unknown } }>().data.deliveries).toMatchObject({
      pending: 0,
      due: 0,
      oldestDueSeconds: null,
      lastMinute: { delivered: 200 },
    });
  });

  it('keeps sending to fast receivers while a slow one holds its own deliveries', async () => {
    const slow = await startReceiver(() => 'hold');
    const fast = await startReceiver();
    closers.push(
      () => slow.close(),
      () => fast.close(),
    );
    const slowPlanner = await plannerWithAlerts(t, `${slow.url}/slow`, 12);
    const fastPlanner = await plannerWithAlerts(t, `${fast.url}/fast`, 60);

    // The slow receiver takes its first deliveries and answers none of them.
    await burst(t, slowPlanner.user, slowPlanner.alertIds, 'slow');
    await waitFor(() => slow.hits.length >= 8, 'the slow receiver to hold 8 requests');

    await burst(t, fastPlanner.user, fastPlanner.alertIds, 'fast');
    const fastRows = await waitFor(async () => {
      const r = await deliveriesOfService(t, fastPlanner.service.id);
      return r.length === 60 && r.every((d) => d.status === 'SUCCESS') && r;
    }, 'the fast deliveries');
    // Every fast delivery arrived and was recorded while the slow receiver still held all of its
    // requests, and it was never sent more than the per-destination cap at once.
    expect(fast.hits).toHaveLength(60);
    expect(fastRows).toHaveLength(60);
    expect(slow.hits).toHaveLength(8);
    expect(slow.hits.every((h) => !h.res.headersSent)).toBe(true);
    const spread = Math.max(...fast.hits.map((h) => h.at)) - Math.min(...fast.hits.map((h) => h.at));
    console.log(`[delivery] 60 fast deliveries arrived within ${spread} ms while the slow receiver held 8`);

    // Once the slow receiver answers, its remaining deliveries follow.
    slow.releaseAll();
    await waitFor(
      async () => {
        slow.releaseAll();
        const r = await deliveriesOfService(t, slowPlanner.service.id);
        return r.length === 12 && r.every((d) => d.status === 'SUCCESS');
      },
      'the slow deliveries',
      30_000,
    );
    expect(new Set(slow.hits.map((h) => h.webhookId)).size).toBe(12);
  });
});

describe('a process killed with SIGKILL while it holds deliveries', () => {
  let child: ChildProcess | null = null;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });

  it('has them sent again by another process within its lease, duplicates only under the same webhook id', async () => {
    const t = await startTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.1' } });
    // The victim's requests are held until the kill; the ones sent again are answered at once.
    const receiverHolds = new Set<string>();
    const receiver = await startReceiver((hit) => (receiverHolds.has(hit.webhookId) ? 'hold' : 'ok'));
    try {
      const { user, service, alertIds } = await plannerWithAlerts(t, `${receiver.url}/kill`, 20);
      await burst(t, user, alertIds, 'kill');
      const rows = await deliveriesOfService(t, service.id);
      for (const d of rows) receiverHolds.add(d.id);

      // A worker process (`npm run worker`) with the default lease takes them all.
      child = spawnWorkerProcess(t.database.url);
      await waitFor(() => receiver.hits.length >= 20, 'the worker to send all 20', 60_000);

      // The receiver accepts 5 of them in the instant before the kill: the worker may or may not
      // have read those answers and recorded them.
      const accepted = receiver.hits.slice(0, 5);
      receiverHolds.clear();
      for (const h of accepted) h.res.writeHead(200).end('ok');
      child.kill('SIGKILL');
      await once(child, 'exit');
      const killedAt = Date.now();

      // Another process takes over once the killed one's leases end.
      const deliveryWorker = startDeliveryWorker({ ...t.services, connectionString: t.database.url });
      try {
        const settled = await waitFor(
          async () => {
            const r = await deliveriesOfService(t, service.id);
            return r.every((d) => d.status === 'SUCCESS') && r;
          },
          'every delivery sent again and recorded',
          30_000,
        );
        const resentAfterMs = Math.max(...receiver.hits.slice(20).map((h) => h.at)) - killedAt;
        const counts = new Map<string, number>();
        for (const h of receiver.hits) counts.set(h.webhookId, (counts.get(h.webhookId) ?? 0) + 1);
        const duplicates = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
        const acceptedIds = new Set(accepted.map((h) => h.webhookId));
        console.log(
          `[delivery] SIGKILL drill: ${receiver.hits.length} requests for 20 deliveries; re-sent within ${resentAfterMs} ms of the kill; ` +
            `${duplicates.filter((id) => acceptedIds.has(id)).length} of the 5 accepted before the kill were received twice (same webhook id)`,
        );
        // Every delivery arrived under its own id, and was recorded once.
        expect(new Set(counts.keys())).toEqual(new Set(rows.map((d) => d.id)));
        expect(settled.every((d) => d.attempts === 1)).toBe(true);
        // The 15 never answered were all sent again; a second receipt of an id happens only for those.
        for (const d of rows) if (!acceptedIds.has(d.id)) expect(counts.get(d.id)).toBe(2);
        // Only a delivery accepted in the instant before the kill may have arrived a second time.
        for (const [id, n] of counts) if (acceptedIds.has(id)) expect(n).toBeLessThanOrEqual(2);
      } finally {
        await deliveryWorker.stop();
      }
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
