/**
 * `npm run bench -- engine --alerts N --interval S --duration D`: seeds N alerts against the loopback
 * simulator, runs `npm run worker` processes, and reports polls/s, lateness, notifications and the
 * workers' CPU and memory. Every alert has its own upstream request unless --shared is given, so
 * coalescing cannot flatter the figures. docs/performance.md records runs and what limits them.
 *
 * `npm run bench -- windows --alerts N --window-days D --nights A-B`: the same with stay-window alerts
 * on overlapping windows (scripts/bench-windows-setup.ts) against the scripted simulator; it also
 * reports upstream requests per interval, as sent (coalesced) and as they would be without coalescing.
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrator.ts';
import { createBackendCpu, dbStats, seed, startReceiver } from './bench-engine-setup.ts';
import {
  adminQuery,
  benchServer,
  benchWorkerEnv,
  cpuSeconds,
  envPairs,
  memoryMb,
  percentile,
  printTable,
  round,
  startChild,
  stopChild,
  withDatabase,
  workerNodeArgs,
} from './bench-lib.ts';
import {
  benchWindow,
  distinctStaysPerInterval,
  seedWindows,
  staysPerInterval,
} from './bench-windows-setup.ts';

const usage = `npm run bench -- engine --alerts N --interval S --duration D
  [--warmup W] [--workers K] [--shared] [--seed X] [--latency-ms L] [--open-probability P]
  [--env KEY=VALUE ...] [--keep] [--statements]
npm run bench -- windows --alerts N --window-days D --nights A-B [same options]`;

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      alerts: { type: 'string', default: '1000' },
      interval: { type: 'string', default: '60' },
      duration: { type: 'string', default: '60' },
      // Default: two intervals and a bit, so neither the first polls (spread over the first interval)
      // nor the one-time move of each alert onto its request's phase (the second) is measured.
      warmup: { type: 'string' },
      workers: { type: 'string', default: '1' },
      shared: { type: 'boolean', default: false },
      seed: { type: 'string', default: '42' },
      'latency-ms': { type: 'string', default: '0' },
      'open-probability': { type: 'string', default: '0.02' },
      env: { type: 'string', multiple: true, default: [] },
      keep: { type: 'boolean', default: false },
      // The database's time per statement over the window (pg_stat_statements; embedded PostgreSQL).
      statements: { type: 'boolean', default: false },
      'window-days': { type: 'string', default: '30' },
      nights: { type: 'string', default: '4-5' },
    },
  });
  const [minNights, maxNights] = values.nights.split('-').map(Number);
  const n = (v: string, name: string) => {
    const x = Number(v);
    if (!Number.isFinite(x) || x < 0) throw new Error(`--${name} must be a number\n${usage}`);
    return x;
  };
  return {
    alerts: n(values.alerts, 'alerts'),
    interval: n(values.interval, 'interval'),
    duration: n(values.duration, 'duration'),
    warmup: values.warmup === undefined ? 2 * n(values.interval, 'interval') + 5 : n(values.warmup, 'warmup'),
    workers: Math.max(1, n(values.workers, 'workers')),
    shared: values.shared,
    seed: n(values.seed, 'seed'),
    latencyMs: n(values['latency-ms'], 'latency-ms'),
    openProbability: n(values['open-probability'], 'open-probability'),
    env: envPairs(values.env),
    keep: values.keep,
    statements: values.statements,
    windowDays: n(values['window-days'], 'window-days'),
    minNights: n(String(minNights), 'nights'),
    maxNights: n(String(maxNights ?? minNights), 'nights'),
  };
}

async function dbNow(db: pg.Client): Promise<Date> {
  return (await db.query<{ now: Date }>('SELECT now() AS now')).rows[0]!.now;
}

/** The embedded server's settings for --statements: statement statistics, planning included. */
const statementSettings = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track_planning': 'on',
};

/** Opens statement statistics on the benchmark's database; explains what is missing when it cannot. */
async function enableStatements(db: pg.Client): Promise<void> {
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await db.query('SELECT pg_stat_statements_reset()');
  } catch (error) {
    throw new Error(
      `--statements needs pg_stat_statements loaded by the server (the embedded one, DATABASE_URL unset, is started with it): ${(error as Error).message}`,
    );
  }
}

interface StatementFigures {
  calls: number;
  ms: number;
  planMs: number;
  rows: number;
  /** Every statement's time together, for shares. */
  allMs: number;
  query: string;
}

/** The benchmark database's statements since the last reset, most time first (execution + planning). */
async function readStatements(db: pg.Client, limit: number): Promise<StatementFigures[]> {
  const { rows } = await db.query<StatementFigures>(
    `SELECT calls::float8 AS calls, (total_exec_time + total_plan_time)::float8 AS ms,
            total_plan_time::float8 AS "planMs", rows::float8 AS rows,
            (sum(total_exec_time + total_plan_time) OVER ())::float8 AS "allMs",
            left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
     FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY total_exec_time + total_plan_time DESC LIMIT $1`,
    [limit],
  );
  return rows;
}

const requestsSoFar = async (simulatorUrl: string) =>
  ((await (await fetch(`${simulatorUrl}/stats`)).json()) as { requests: number }).requests;

export async function runEngineBench(argv: string[], mode: 'engine' | 'windows' = 'engine'): Promise<void> {
  const o = parse(argv);
  const windows = mode === 'windows';
  // Windows: one 4-night block opens ten days into the first window, so the notify path runs too.
  const first = Date.parse(`${benchWindow(0, o).start}T00:00:00Z`) + 10 * 86_400_000;
  const block = [0, 1, 2, 3].map((d) => new Date(first + d * 86_400_000).toISOString().slice(0, 10));
  const { adminUrl, embedded } = await benchServer(o.statements ? statementSettings : undefined);
  const name = `bench_engine_${Date.now()}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const url = withDatabase(adminUrl, name);
  const handle = createDatabase(url, { max: 2 });
  await migrateToLatest(handle.db);
  await handle.destroy();

  const sim = await startChild(
    'scripts/simulator.ts',
    [
      '--port',
      '0',
      '--seed',
      String(o.seed),
      '--latency-ms',
      String(o.latencyMs),
      '--open-probability',
      String(o.openProbability),
      ...(windows ? ['--open-nights', block.join(',')] : []),
    ],
    {},
    { waitForLine: true },
  );
  const simulatorUrl = (JSON.parse(sim.firstLine!) as { simulator: string }).simulator;
  const receiver = await startReceiver();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const workers: Awaited<ReturnType<typeof startChild>>[] = [];
  try {
    const seeding = Date.now();
    if (windows) await seedWindows(db, o, simulatorUrl, receiver.url);
    else await seed(db, o, simulatorUrl, receiver.url);
    console.log(
      `Seeded ${o.alerts} alerts in ${((Date.now() - seeding) / 1000).toFixed(1)} s; starting ${o.workers} worker(s)`,
    );
    // The simulator stands in for many resort APIs behind one loopback address.
    if (o.statements) await enableStatements(db);
    const workerEnv = benchWorkerEnv(url, o.env);
    for (let i = 0; i < o.workers; i++) workers.push(await startChild(workerNodeArgs(), [], workerEnv));
    await sleep(o.warmup * 1000);

    if (o.statements) await db.query('SELECT pg_stat_statements_reset()');
    const t0 = await dbNow(db);
    const wall0 = Date.now();
    const cpu0 = workers.map((w) => cpuSeconds(w.child.pid!));
    const simCpu0 = cpuSeconds(sim.child.pid!);
    const stats0 = await dbStats(db, name);
    const requests0 = await requestsSoFar(simulatorUrl);
    const backends = createBackendCpu();
    const writers = createBackendCpu();
    backends.sample(stats0.pids ?? []);
    writers.sample(stats0.serverPids ?? []);
    let peakRss = 0;
    while (Date.now() - wall0 < o.duration * 1000) {
      await sleep(1000);
      peakRss = Math.max(peakRss, ...workers.map((w) => memoryMb(w.child.pid!).rss));
      const stats = await dbStats(db, name);
      backends.sample(stats.pids ?? []);
      writers.sample(stats.serverPids ?? []);
    }
    const t1 = await dbNow(db);
    const wall = (Date.now() - wall0) / 1000;
    const statements = o.statements ? await readStatements(db, 15) : [];
    const workerCpu = workers.map((w, i) => (cpuSeconds(w.child.pid!) - cpu0[i]!) / wall);
    const simCpu = (cpuSeconds(sim.child.pid!) - simCpu0) / wall;
    const stats1 = await dbStats(db, name);
    const requests = (await requestsSoFar(simulatorUrl)) - requests0;
    backends.sample(stats1.pids ?? []);
    writers.sample(stats1.serverPids ?? []);
    const dbCpu = backends.total() / wall;
    const peakHwm = Math.max(...workers.map((w) => memoryMb(w.child.pid!).peak));

    const runs = (
      await db.query<{ polls: number; failures: number; p50: number; p99: number; max: number }>(
        `SELECT count(*)::int AS polls, (count(*) FILTER (WHERE NOT ok))::int AS failures,
                percentile_disc(0.5) WITHIN GROUP (ORDER BY lateness_ms) AS p50,
                percentile_disc(0.99) WITHIN GROUP (ORDER BY lateness_ms) AS p99,
                max(lateness_ms) AS max
         FROM poll_runs WHERE started_at >= $1 AND started_at < $2 AND block_last_at >= $1`,
        [t0, t1],
      )
    ).rows[0]!;
    const notified = (
      await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM notifications WHERE created_at >= $1 AND created_at < $2',
        [t0, t1],
      )
    ).rows[0]!.n;
    const backlog = (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM alerts WHERE status IN ('ACTIVE','FIRING','ERROR')
           AND next_due_at < now() - interval '1 second' AND (claimed_until IS NULL OR claimed_until < now())`,
      )
    ).rows[0]!.n;
    await sleep(2000); // deliveries of the window's last matches
    const latencies = receiver.arrivals
      .filter((a) => a.matchedAt >= t0.getTime() && a.matchedAt < t1.getTime())
      .map((a) => a.latencyMs)
      .sort((a, b) => a - b);
    const polls = runs.polls;
    const result = {
      alerts: o.alerts,
      intervalSeconds: o.interval,
      durationSeconds: round(wall),
      workers: o.workers,
      sharedRequests: o.shared,
      upstreamLatencyMs: o.latencyMs,
      openProbability: o.openProbability,
      targetPollsPerSecond: round(o.alerts / o.interval),
      pollsPerSecond: round(polls / wall),
      polls,
      failedPolls: runs.failures,
      latenessMs: { p50: runs.p50, p99: runs.p99, max: runs.max },
      dueBacklogAtEnd: backlog,
      notificationsPerSecond: round(notified / wall, 2),
      notificationLatencyMs: {
        deliveries: latencies.length,
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        max: latencies.at(-1) ?? null,
      },
      workerCpuPercent: workerCpu.map((c) => round(c * 100)),
      workerPeakRssMb: round(Math.max(peakRss, peakHwm)),
      simulatorCpuPercent: round(simCpu * 100),
      databaseBackendsCpuPercent: round(dbCpu * 100),
      databaseWritersCpuPercent: round((writers.total() / wall) * 100),
      perPoll: {
        transactions: round((stats1.xact - stats0.xact) / Math.max(1, polls), 3),
        rowsInserted: round((stats1.ins - stats0.ins) / Math.max(1, polls), 2),
        rowsUpdated: round((stats1.upd - stats0.upd) / Math.max(1, polls), 2),
      },
      machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => round(l, 2)) },
      upstreamRequestsPerInterval: {
        sent: round((requests / wall) * o.interval),
        ...(windows
          ? { withoutCoalescing: staysPerInterval(o), distinctStays: distinctStaysPerInterval(o) }
          : {}),
      },
      ...(windows ? { windowDays: o.windowDays, nights: `${o.minNights}-${o.maxNights}` } : {}),
    };
    const perInterval = result.upstreamRequestsPerInterval;
    const title = windows
      ? `Stay-windows benchmark: ${o.alerts} alerts on ${o.windowDays}-day windows, ${o.minNights}-${o.maxNights} nights, every ${o.interval} s, ${round(wall)} s measured`
      : `Engine benchmark: ${o.alerts} alerts every ${o.interval} s, ${round(wall)} s measured`;
    printTable(title, [
      [
        'upstream requests per interval (sent / without coalescing / distinct)',
        `${perInterval.sent} / ${perInterval.withoutCoalescing ?? '–'} / ${perInterval.distinctStays ?? '–'}`,
      ],
      ['polls/s (target)', `${result.pollsPerSecond} (${result.targetPollsPerSecond})`],
      ['lateness p50 / p99 / max (ms)', `${runs.p50} / ${runs.p99} / ${runs.max}`],
      ['failed polls', runs.failures],
      ['due backlog at end', backlog],
      ['notifications/s', result.notificationsPerSecond],
      [
        'notification latency p50 / p99 (ms)',
        `${result.notificationLatencyMs.p50} / ${result.notificationLatencyMs.p99}`,
      ],
      ['worker CPU (% of one core)', result.workerCpuPercent.join(', ')],
      ['worker peak RSS (MB)', result.workerPeakRssMb],
      ['simulator CPU (%)', result.simulatorCpuPercent],
      ['database backends CPU (%)', result.databaseBackendsCpuPercent],
      [
        'database server writers CPU (checkpointer, background and WAL writers; %)',
        result.databaseWritersCpuPercent,
      ],
      [
        'transactions / rows written per poll',
        `${result.perPoll.transactions} / ${round((result.perPoll.rowsInserted ?? 0) + (result.perPoll.rowsUpdated ?? 0), 2)}`,
      ],
      ['load average (1/5/15 min)', result.machine.loadAverage.join(' ')],
    ]);
    if (o.statements) {
      const total = statements[0]?.allMs ?? 0;
      printTable(
        'Database time per statement over the window (pg_stat_statements: execution + planning, share of all statements; the top 15)',
        statements.map((st) => [
          st.query,
          `${round((st.ms * 1000) / Math.max(1, polls), 1)} µs/poll  ${round((100 * st.ms) / Math.max(1, total))} %  ${st.calls} calls  ${round(st.ms / Math.max(1, st.calls), 2)} ms/call (plan ${round(st.planMs / Math.max(1, st.calls), 2)})`,
        ]),
      );
    }
    console.log(JSON.stringify(o.statements ? { ...result, statements } : result));
  } finally {
    for (const w of workers) await stopChild(w.child);
    await stopChild(sim.child);
    receiver.server.closeAllConnections();
    receiver.server.close();
    await db.end();
    if (!o.keep) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    else console.log(`Kept database ${name}`);
    await embedded?.stop();
  }
}
