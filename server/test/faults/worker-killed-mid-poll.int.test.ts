import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type Runtime, startRuntime } from '../../src/runtime.ts';
import {
  createAlerts,
  createPlanner,
  createTemplate,
  startWebhookReceiver,
  waitFor,
} from '../engine/engine-fixtures.ts';
import { type DrillPostgres, startDrillPostgres } from '../helpers/drill-postgres.ts';

/**
 * Fault drill (docs/performance.md): a worker process killed (SIGKILL) while its polls are in flight at the
 * upstream. Another worker must poll every one of those alerts again, and each match must reach the
 * webhook exactly once. Runs on a PostgreSQL of the drill's own, with `npm run worker` processes.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const ALERTS = 12;

let pg: DrillPostgres;
let runtime: Runtime;
let upstream: Server;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const workers: ChildProcess[] = [];
/** While set, the upstream parks requests without answering: the polls stay in flight. */
let hold = true;
const parked: { res: ServerResponse; ref: string }[] = [];
let answered = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const ref = new URL(req.url ?? '/', 'http://x').searchParams.get('ref') ?? '';
    req.resume();
    if (hold) {
      parked.push({ res, ref });
      return;
    }
    answered++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ rooms: [{ code: 'R1', available: true, price: 300 }] }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  receiver = await startWebhookReceiver();
  pg = await startDrillPostgres();
  // The API process migrates and runs no engine of its own: only the worker processes poll.
  runtime = await startRuntime(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: pg.url,
      HOST: '127.0.0.1',
      PORT: '0',
      SERVE_CLIENT: 'false',
      RUN_WORKER: 'false',
      JWT_SECRET: 'drill-secret-that-is-long-enough-for-hs256-0123456789',
    }),
  );
}, 120_000);

/** Stops every worker started so far (a peer with the default heartbeat timeout would reap for us). */
async function stopWorkers() {
  for (const child of workers.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

afterAll(async () => {
  await stopWorkers();
  await runtime?.stop();
  await pg?.destroy();
  await receiver?.close();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
});

async function spawnWorker(env: Record<string, string> = {}): Promise<{ child: ChildProcess; id: string }> {
  const child = spawn(process.execPath, ['server/src/worker.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      DATABASE_URL: pg.url,
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      JWT_SECRET: 'drill-secret-that-is-long-enough-for-hs256-0123456789',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  workers.push(child);
  const row = await waitFor(
    () =>
      runtime.services.db
        .selectFrom('engine_workers')
        .select('id')
        .where('pid', '=', child.pid!)
        .executeTakeFirst(),
    { what: `worker ${child.pid} to join`, timeoutMs: 30_000 },
  );
  return { child, id: row.id };
}

const runs = () =>
  runtime.services.db
    .selectFrom('poll_runs')
    .select(['alert_id', 'started_at', 'worker_id', 'notified'])
    .execute();

describe('a worker killed mid-poll', () => {
  it('loses no alert: another worker polls each again, and every match is delivered exactly once', async () => {
    const { db } = runtime.services;
    const { port } = upstream.address() as AddressInfo;
    const planner = await createPlanner(db, receiver.url);
    const templateId = await createTemplate(db, `http://127.0.0.1:${port}/rooms`);
    // Distinct queries, so the engine does not coalesce the alerts into one upstream fetch.
    const ids = await createAlerts(
      db,
      planner,
      templateId,
      Array.from({ length: ALERTS }, (_, i) => ({ query: { ref: i } })),
    );

    const victim = await spawnWorker();
    await waitFor(() => new Set(parked.map((p) => p.ref)).size === ALERTS, {
      what: 'every alert in flight at the upstream',
      timeoutMs: 60_000,
    });
    victim.child.kill('SIGKILL');
    await once(victim.child, 'exit');
    const killedAt = new Date();
    // The victim died holding every poll: nothing of it was written back.
    expect((await runs()).filter((r) => r.worker_id === victim.id)).toEqual([]);
    for (const p of parked.splice(0)) p.res.destroy();
    hold = false;

    const replacement = await spawnWorker();
    await waitFor(
      async () => {
        const after = (await runs()).filter((r) => r.started_at > killedAt);
        return ids.every((id) => after.filter((r) => r.alert_id === id).length >= 2);
      },
      { what: 'two polls of every alert after the kill', timeoutMs: 90_000, intervalMs: 500 },
    );

    const all = await runs();
    expect(all.every((r) => r.worker_id === replacement.id)).toBe(true);
    // firstMatch: one notification per alert, from its first completed poll; one delivery each.
    const notifications = await db.selectFrom('notifications').select(['id', 'alert_id']).execute();
    expect(notifications.map((n) => n.alert_id).sort()).toEqual([...ids].sort());
    expect(all.filter((r) => r.notified)).toHaveLength(ALERTS);
    await waitFor(() => receiver.received.length >= ALERTS, { what: 'every delivery', timeoutMs: 30_000 });
    const deliveries = await db.selectFrom('notification_deliveries').select(['id', 'status']).execute();
    expect(deliveries).toHaveLength(ALERTS);
    expect(receiver.received).toHaveLength(ALERTS);
    const webhookIds = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(webhookIds).size).toBe(ALERTS);
    expect(answered).toBeGreaterThanOrEqual(2 * ALERTS);
  }, 180_000);
});

describe('a killed worker is noticed by its database session', () => {
  it('releases its claims as soon as its session ends, long before its heartbeat would time out', async () => {
    const { db } = runtime.services;
    // The heartbeat alone would take an hour to call the victim dead, and its claims' lease two
    // minutes: only the end of its database session can bring its alerts back within the bound below.
    const env = { ENGINE_WORKER_TIMEOUT_SECONDS: '3600' };
    await stopWorkers();
    hold = true;
    const { port } = upstream.address() as AddressInfo;
    const planner = await createPlanner(db, receiver.url);
    const templateId = await createTemplate(db, `http://127.0.0.1:${port}/rooms`);
    const victim = await spawnWorker(env);
    const ids = await createAlerts(
      db,
      planner,
      templateId,
      Array.from({ length: 4 }, (_, i) => ({ query: { ref: `session-${i}` } })),
    );
    await waitFor(() => ids.length === parked.filter((p) => p.ref.startsWith('session-')).length, {
      what: 'the victim polling every alert',
      timeoutMs: 60_000,
    });
    const survivor = await spawnWorker(env);
    victim.child.kill('SIGKILL');
    await once(victim.child, 'exit');
    for (const p of parked.splice(0)) p.res.destroy();
    hold = false;

    await waitFor(
      async () => {
        const polled = await db
          .selectFrom('poll_runs')
          .select('alert_id')
          .where('alert_id', 'in', ids)
          .where('worker_id', '=', survivor.id)
          .execute();
        return new Set(polled.map((r) => r.alert_id)).size === ids.length;
      },
      { what: "the survivor polling the victim's alerts", timeoutMs: 60_000, intervalMs: 250 },
    );
    const left = await db.selectFrom('engine_workers').select('id').where('id', '=', victim.id).execute();
    expect(left).toEqual([]);
  }, 180_000);
});
