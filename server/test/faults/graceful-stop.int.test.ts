import type { ChildProcess } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthResult } from '@resort/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { createAlerts, createPlanner, createTemplate, rooms } from '../engine/engine-fixtures.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../factories.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { openLiveStream } from '../helpers/live-stream.ts';
import { waitFor } from '../helpers/receivers.ts';
import { exitCodeOf, spawnAppProcess, spawnWorkerProcess } from '../helpers/worker-process.ts';

/**
 * A graceful stop (SIGTERM) of real processes (docs/decisions.md, "Shutdown"): a worker stops
 * claiming, finishes the polls it started while its heartbeat goes on, so no peer takes it for dead
 * and polls its alerts again, and exits 0; an app with an open live stream ends the stream first
 * and exits 0 instead of waiting for the forced exit.
 */

const ALERTS = 20;
/** Each upstream answer takes this long: the polls are in flight when the SIGTERM comes. */
const SLOW_MS = 4500;

let database: TestDatabase;
let handle: DatabaseHandle;
let upstream: Server;
/** Requests per alert (its `ref` query parameter), and those that came while another was open. */
const requests = new Map<string, number>();
const open = new Map<string, number>();
let overlapping = 0;
const held = new Set<ServerResponse>();
const children: ChildProcess[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const ref = new URL(req.url ?? '/', 'http://x').searchParams.get('ref') ?? '';
    req.resume();
    requests.set(ref, (requests.get(ref) ?? 0) + 1);
    if ((open.get(ref) ?? 0) > 0) overlapping++;
    open.set(ref, (open.get(ref) ?? 0) + 1);
    held.add(res);
    setTimeout(() => {
      held.delete(res);
      open.set(ref, open.get(ref)! - 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rooms(false)));
    }, SLOW_MS);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  database = await createTestDatabase();
  handle = createDatabase(database.url, { max: 2 });
}, 60_000);

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exitCodeOf(child);
  }
});

afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
  await handle?.destroy();
  await database?.drop();
});

describe('a graceful stop', { timeout: 120_000 }, () => {
  it('drains a worker’s polls under its heartbeat: no peer polls them again, and it exits 0', async () => {
    // Peers take a silent worker for dead after 2 s: well within the time its polls take.
    const env = { ENGINE_WORKER_TIMEOUT_SECONDS: '2' };
    const workers = [spawnWorkerProcess(database.url, env), spawnWorkerProcess(database.url, env)];
    children.push(...workers);
    await waitFor(
      async () => (await handle.db.selectFrom('engine_workers').select('id').execute()).length === 2,
      'both workers to join the pool',
      60_000,
    );
    const port = (upstream.address() as AddressInfo).port;
    const templateId = await createTemplate(handle.db, `http://127.0.0.1:${port}/availability`);
    const planner = await createPlanner(handle.db, `http://127.0.0.1:${port}/hook`);
    const alertIds = await createAlerts(
      handle.db,
      planner,
      templateId,
      Array.from({ length: ALERTS }, (_, i) => ({ query: { ref: `a${i}` }, interval: 60 })),
    );
    // Every alert polled once, the polls still open at the upstream.
    await waitFor(() => requests.size === ALERTS, `all ${ALERTS} polls at the upstream`, 60_000);

    // SIGTERM the worker holding the most of them in flight.
    const holders = await handle.db
      .selectFrom('alerts')
      .innerJoin('engine_workers', 'engine_workers.id', 'alerts.claimed_by')
      .select(['engine_workers.pid'])
      .execute();
    const countOf = (w: ChildProcess) => holders.filter((h) => h.pid === w.pid).length;
    const victim = countOf(workers[0]!) >= countOf(workers[1]!) ? workers[0]! : workers[1]!;
    expect(countOf(victim)).toBeGreaterThan(0);
    const stoppedAt = Date.now();
    victim.kill('SIGTERM');
    const code = await exitCodeOf(victim);
    console.log(
      `[shutdown] a worker holding ${countOf(victim)} polls in flight drained and exited ${code} in ${Date.now() - stoppedAt} ms`,
    );

    // Every alert's poll of this due time is written back, once.
    await waitFor(
      async () => {
        const runs = await handle.db.selectFrom('poll_runs').select('alert_id').execute();
        return new Set(runs.map((r) => r.alert_id)).size === ALERTS;
      },
      'a poll run of every alert',
      30_000,
    );
    expect(overlapping).toBe(0);
    expect([...requests.values()].every((n) => n === 1)).toBe(true);
    expect(requests.size).toBe(ALERTS);
    expect(code).toBe(0);
    const runs = await handle.db.selectFrom('poll_runs').select(['alert_id', 'due_at']).execute();
    expect(runs).toHaveLength(ALERTS);
    expect(new Set(runs.map((r) => r.alert_id))).toEqual(new Set(alertIds));
  });

  it('exits 0 when a poll still hangs at the end of the drain: the request is dropped, not awaited', async () => {
    // An upstream that takes every request and never answers: the poll outlasts the drain.
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const worker = spawnWorkerProcess(database.url);
      children.push(worker);
      let arrived = 0;
      hanging.on('request', () => arrived++);
      const port = (hanging.address() as AddressInfo).port;
      const templateId = await createTemplate(handle.db, `http://127.0.0.1:${port}/availability`);
      const planner = await createPlanner(handle.db, `http://127.0.0.1:${port}/hook`);
      await createAlerts(handle.db, planner, templateId, [{ query: { ref: 'stuck' }, interval: 60 }]);
      await waitFor(() => arrived > 0, 'the poll at the hanging upstream', 60_000);

      const stoppedAt = Date.now();
      worker.kill('SIGTERM');
      const code = await exitCodeOf(worker);
      console.log(`[shutdown] a worker with a hanging poll exited ${code} in ${Date.now() - stoppedAt} ms`);
      expect(code).toBe(0);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  });

  it('ends an open live stream first and exits 0', async () => {
    const app = spawnAppProcess(database.url);
    children.push(app.child);
    const url = await app.url;
    const email = uniqueEmail();
    const registered = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stream Planner', email, password: STRONG_PASSWORD }),
    });
    expect(registered.status).toBe(201);
    const { data } = (await registered.json()) as { data: AuthResult };
    const stream = openLiveStream(url, data.tokens.accessToken);
    await stream.connected;

    const stoppedAt = Date.now();
    app.child.kill('SIGTERM');
    const code = await exitCodeOf(app.child);
    console.log(`[shutdown] an app with an open live stream exited ${code} in ${Date.now() - stoppedAt} ms`);
    expect(code).toBe(0);
    stream.close();
  });
});
