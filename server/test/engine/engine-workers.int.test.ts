import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';
import { createAlerts, createTemplate, dbNow, rooms, startEngineApp, waitFor } from './engine-fixtures.ts';

/**
 * `npm run worker` processes sharing one database: the work is split, nothing is polled twice, and a
 * worker killed with SIGKILL loses no alert and sends no duplicate.
 */
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function spawnWorker(t: TestApp): Promise<{ child: ChildProcess; id: string }> {
  const child = spawnWorkerProcess(t.database.url);
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  const row = await waitFor(
    () => t.db.selectFrom('engine_workers').select('id').where('pid', '=', child.pid!).executeTakeFirst(),
    { what: `worker ${child.pid} to join`, timeoutMs: 30_000 },
  );
  return { child, id: row.id };
}

async function runsOf(t: TestApp) {
  return t.db
    .selectFrom('poll_runs')
    .select(['alert_id', 'due_at', 'started_at', 'lateness_ms', 'worker_id', 'notified'])
    .orderBy('alert_id')
    .orderBy('due_at')
    .execute();
}

function byAlert<T extends { alert_id: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const r of rows) map.set(r.alert_id, [...(map.get(r.alert_id) ?? []), r]);
  return map;
}

async function setUp(alerts: number, watch: Parameters<typeof createAlerts>[3][number]['watch']) {
  // The worker processes poll and deliver; this process's engine is never started.
  const world = await startEngineApp({ boss: false, receiver: true });
  const { t, upstream, planner } = world;
  const receiver = world.receiver!;
  cleanups.push(() => world.close());
  upstream.set('/rooms', { body: rooms(true) });
  const templateId = await createTemplate(t.db, `${upstream.url}/rooms`);
  const ids = await createAlerts(
    t.db,
    planner,
    templateId,
    Array.from({ length: alerts }, (_, i) => ({ query: { ref: i }, watch })),
  );
  return { t, receiver, ids };
}

describe('engine worker processes', { timeout: 330_000 }, () => {
  it('two workers share 200 alerts at 5 s: each polled on schedule, never twice in an interval', async () => {
    const { t, ids } = await setUp(200, undefined);
    const a = await spawnWorker(t);
    const b = await spawnWorker(t);
    // Six polls of every alert: thirty seconds of work.
    await waitFor(
      async () => {
        const counts = byAlert(await runsOf(t));
        return ids.every((id) => (counts.get(id)?.length ?? 0) >= 6);
      },
      { what: 'six polls of every alert', timeoutMs: 90_000, intervalMs: 1000 },
    );
    const runs = byAlert(await runsOf(t));
    for (const id of ids) {
      const list = runs.get(id)!;
      const dues = list.map((r) => r.due_at.getTime());
      expect(new Set(dues).size).toBe(dues.length);
      // After the first poll settles the alert on its phase, every due time is exactly 5 s after the last.
      for (let i = 2; i < dues.length; i++) expect(dues[i]! - dues[i - 1]!).toBe(5000);
      for (const r of list) expect(r.lateness_ms).toBeLessThan(5000);
    }
    const perWorker = new Map<string, number>();
    for (const r of [...runs.values()].flat())
      perWorker.set(r.worker_id!, (perWorker.get(r.worker_id!) ?? 0) + 1);
    expect([...perWorker.keys()].sort()).toEqual([a.id, b.id].sort());
    const total = [...perWorker.values()].reduce((n, c) => n + c, 0);
    for (const count of perWorker.values()) expect(count).toBeGreaterThan(total * 0.1);
  });

  it('a worker killed with SIGKILL: every alert polls again within two intervals, only what it held is sent again', async () => {
    const everyMatch = {
      all: [{ path: 'rooms[*].available', operator: 'equals' as const, value: true }],
      notifyOn: 'everyMatch' as const,
    };
    const { t, receiver, ids } = await setUp(100, everyMatch);
    const victim = await spawnWorker(t);
    await spawnWorker(t);
    await waitFor(
      async () => {
        const counts = byAlert(await runsOf(t));
        return ids.every((id) => (counts.get(id)?.length ?? 0) >= 2);
      },
      { what: 'two polls of every alert', timeoutMs: 60_000, intervalMs: 500 },
    );
    victim.child.kill('SIGKILL');
    await once(victim.child, 'exit');
    const killedAt = (await dbNow(t.db)).getTime();
    // Deliveries claimed and not recorded at the kill: the killed worker's among them may have reached
    // the receiver already (sent, not yet recorded), and go out again once their lease ends.
    const heldAtKill = new Set(
      (
        await t.db
          .selectFrom('notification_deliveries')
          .select('id')
          .where('status', '=', 'PENDING')
          .where('claim_token', 'is not', null)
          .execute()
      ).map((d) => d.id),
    );
    const replacement = await spawnWorker(t);

    await waitFor(
      async () => {
        const runs = byAlert(await runsOf(t));
        return ids.every(
          (id) => (runs.get(id) ?? []).filter((r) => r.started_at.getTime() > killedAt).length >= 2,
        );
      },
      { what: 'two polls of every alert after the kill', timeoutMs: 60_000, intervalMs: 500 },
    );
    const runs = byAlert(await runsOf(t));
    for (const id of ids) {
      const list = runs.get(id)!;
      const firstAfter = list.find((r) => r.started_at.getTime() > killedAt)!;
      expect(firstAfter.started_at.getTime() - killedAt).toBeLessThanOrEqual(10_000);
      const dues = list.map((r) => r.due_at.getTime());
      expect(new Set(dues).size).toBe(dues.length);
    }
    // The replacement joins the pool and takes its share: it may start after the survivor has
    // already polled every alert twice (a loaded machine starts processes slowly), so wait for it.
    await waitFor(async () => (await runsOf(t)).some((r) => r.worker_id === replacement.id), {
      what: 'a poll by the replacement worker',
      timeoutMs: 60_000,
      intervalMs: 500,
    });

    // The workers keep polling: judge a snapshot. Notifications commit before their poll's outcome,
    // so every notified run of the snapshot has its notification, exactly one per due time.
    const snapshot = [...byAlert(await runsOf(t)).values()].flat().filter((r) => r.notified);
    const keys = new Set(
      (await t.db.selectFrom('notifications').select('event_key').execute()).map((n) => n.event_key),
    );
    for (const r of snapshot) expect(keys.has(`${r.alert_id}:${r.due_at.toISOString()}:MATCH`)).toBe(true);
    const deliveries = await t.db
      .selectFrom('notification_deliveries')
      .innerJoin('notifications', 'notifications.id', 'notification_deliveries.notification_id')
      .select(['notification_deliveries.id', 'notifications.event_key'])
      .execute();
    // One delivery per notification.
    expect(new Set(deliveries.map((d) => d.event_key)).size).toBe(deliveries.length);
    // A delivery the killed worker had claimed is sent again by the replacement once its lease ends
    // (DELIVERY_LEASE_SECONDS, 15 s by default).
    await waitFor(
      () => deliveries.every((d) => receiver.received.some((r) => r.headers['webhook-id'] === d.id)),
      { what: 'every delivery', timeoutMs: 60_000, intervalMs: 500 },
    );
    // Each received once, but for a send the killed worker made and never recorded: sent at least once
    // (docs/product.md, "Guarantees"), again under the same webhook-id, and only for what it held.
    const received = new Map<string, number>();
    for (const r of receiver.received) {
      const id = String(r.headers['webhook-id']);
      received.set(id, (received.get(id) ?? 0) + 1);
    }
    const again = [...received].filter(([, n]) => n > 1);
    for (const [id, n] of again) {
      expect(heldAtKill.has(id), `delivery ${id} received ${n} times`).toBe(true);
      expect(n).toBe(2);
    }
  });
});
