import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type Runtime, startRuntime } from '../../src/runtime.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../factories.ts';
import { type DrillPostgres, startDrillPostgres } from '../helpers/drill-postgres.ts';
import { waitFor } from '../helpers/receivers.ts';

/**
 * Fault drill (docs/performance.md): PostgreSQL restarted under load. The app runs as `npm start` runs it
 * (startRuntime: migrations, pg-boss, the polling engine, HTTP on a real port) against a PostgreSQL of
 * the drill's own. While requests flow and an alert is polled every 5 s, the server stops and starts
 * again; requests during the outage must end with a 5xx JSON answer (none may hang), and afterwards
 * the API, pg-boss and the engine must work again by themselves.
 */
type Phase = 'before' | 'outage' | 'after';

interface Outcome {
  phase: Phase;
  status: number | 'hung' | 'network';
  message?: string;
}

/** Far above any bounded wait in the app (connection timeout 10 s, statement timeout 30 s). */
const HANG_LIMIT_MS = 45_000;
const DRILL_QUEUE = 'fault-drill';

let pg: DrillPostgres;
let runtime: Runtime;
let base: string;
let token: string;
let upstream: Server;
let upstreamHits = 0;

beforeAll(async () => {
  upstream = createServer((_req, res) => {
    upstreamHits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"rooms":[{"available":false}]}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  pg = await startDrillPostgres();
  runtime = await startRuntime(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: pg.url,
      HOST: '127.0.0.1',
      PORT: '0',
      SERVE_CLIENT: 'false',
      JWT_SECRET: 'drill-secret-that-is-long-enough-for-hs256-0123456789',
      OUTBOUND_ALLOWLIST: '127.0.0.1',
    }),
  );
  base = runtime.url!;
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Drill Planner', email: uniqueEmail('drill'), password: STRONG_PASSWORD }),
  });
  token = ((await res.json()) as { data: { tokens: { accessToken: string } } }).data.tokens.accessToken;
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
  await pg?.destroy();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
});

/** The drill's planner is the instance's first account (super_admin): a template and a 5-second alert. */
async function createPolledAlert(): Promise<string> {
  const { port } = upstream.address() as AddressInfo;
  const template = await fetch(`${base}/api/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Drill lodge',
      resortCode: 'DRL',
      targetUrl: `http://127.0.0.1:${port}/rooms`,
      method: 'GET',
      pollingIntervalSeconds: 5,
      responseWatchPresets: {
        all: [
          {
            id: 'open',
            label: 'Open',
            condition: { path: 'rooms[*].available', operator: 'equals', value: true },
          },
        ],
      },
    }),
  });
  const templateId = ((await template.json()) as { data: { id: string } }).data.id;
  const alert = await fetch(`${base}/api/registrations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      templateId,
      title: 'Drill alert',
      pollingIntervalSeconds: 5,
      watchConfig: {
        all: [{ path: 'rooms[*].available', operator: 'equals', value: true, presetId: 'open' }],
      },
    }),
  });
  return ((await alert.json()) as { data: { id: string } }).data.id;
}

const pollsSince = async (alertId: string, since: Date) =>
  (
    await runtime.services.db
      .selectFrom('poll_runs')
      .select('id')
      .where('alert_id', '=', alertId)
      .where('started_at', '>', since)
      .execute()
  ).length;

async function call(path: string, init: RequestInit = {}): Promise<Omit<Outcome, 'phase'>> {
  try {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(HANG_LIMIT_MS),
    });
    const text = await res.text();
    let message: string | undefined;
    try {
      message = (JSON.parse(text) as { message?: string }).message;
    } catch {
      message = undefined;
    }
    return { status: res.status, ...(message === undefined ? {} : { message }) };
  } catch (error) {
    return { status: (error as Error).name === 'TimeoutError' ? 'hung' : 'network' };
  }
}

/** Clients that keep reading and writing until told to stop, recording every answer with its phase. */
function startLoad(clients: number, phase: () => Phase) {
  const outcomes: Outcome[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const at = phase();
      const i = n++;
      const outcome =
        i % 3 === 2
          ? await call('/api/users/me', { method: 'PATCH', body: JSON.stringify({ headline: `drill ${i}` }) })
          : await call('/api/users/me');
      outcomes.push({ phase: at, ...outcome });
    }
  });
  return {
    outcomes,
    count: (p: Phase, ok?: boolean) =>
      outcomes.filter((o) => o.phase === p && (ok === undefined || (o.status === 200) === ok)).length,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

describe('PostgreSQL restarted under load', () => {
  it('answers 5xx JSON during the outage without hanging; the API, pg-boss and the engine recover by themselves', async () => {
    const boss = runtime.services.boss!;
    const handled: string[] = [];
    await boss.createQueue(DRILL_QUEUE);
    await boss.work<{ tag: string }>(DRILL_QUEUE, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      if (job) handled.push(job.data.tag);
    });
    await boss.send(DRILL_QUEUE, { tag: 'before' });
    await waitFor(() => handled.includes('before'), 'the drill job before the outage');
    const alertId = await createPolledAlert();
    await waitFor(
      async () => (await pollsSince(alertId, new Date(0))) >= 1,
      'a poll before the outage',
      30_000,
    );

    let phase: Phase = 'before';
    const load = startLoad(8, () => phase);
    await waitFor(() => load.count('before', true) >= 40, 'answers before the outage');

    await pg.stop();
    phase = 'outage';
    await waitFor(() => load.count('outage', false) >= 40, 'answers during the outage');
    const health = await call('/api/health');

    await pg.start();
    const restartedAt = new Date();
    const hitsAtRestart = upstreamHits;
    phase = 'after';
    await waitFor(async () => (await call('/api/health')).status === 200, 'health after the restart', 60_000);
    const recoveredFrom = load.outcomes.length;
    await waitFor(() => load.outcomes.length - recoveredFrom >= 60, 'answers after the restart', 60_000);
    await load.stop();

    // No request hung or lost its connection at any time.
    expect(load.outcomes.filter((o) => o.status === 'hung' || o.status === 'network')).toEqual([]);
    // During the outage: 5xx with a JSON message (the ones that succeeded finished before the stop).
    const failed = load.outcomes.filter((o) => o.phase === 'outage' && o.status !== 200);
    expect(failed.length).toBeGreaterThanOrEqual(40);
    for (const o of failed) {
      expect(o.status as number).toBeGreaterThanOrEqual(500);
      expect(o.message).toEqual(expect.any(String));
    }
    expect(health.status).toBe(503);
    // After the restart: everything succeeds again, with the same app process and pool.
    expect(load.outcomes.slice(recoveredFrom).filter((o) => o.status !== 200)).toEqual([]);

    await boss.send(DRILL_QUEUE, { tag: 'after' });
    await waitFor(() => handled.includes('after'), 'the drill job after the restart', 60_000);
    // The engine polls again, and records its polls, without being restarted.
    await waitFor(
      async () => upstreamHits > hitsAtRestart && (await pollsSince(alertId, restartedAt)) >= 2,
      'two recorded polls after the restart',
      60_000,
    );
  }, 180_000);
});
