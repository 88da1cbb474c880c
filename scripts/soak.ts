/**
 * `npm run soak -- [--minutes N]` (default 20): the product for N minutes among misbehaving
 * neighbours, on a fresh database (on DATABASE_URL's server, else an embedded one, as the benchmarks
 * do): one app process (`npm start`'s runtime with HTTP and its in-process worker) and one extra
 * `npm run worker`, seeded through the REST API (scripts/soak-seed.ts), against loopback upstreams
 * (scripts/soak-upstreams.ts) and webhook receivers (scripts/soak-receivers.ts). Healthy alerts watch
 * a host whose rooms open on a known script, so every opening must bring exactly one webhook per
 * alert; around them a host answers NUL bytes in strings, one never answers, one answers odd 500s,
 * receivers are slow or answer NUL-laden errors, and the extra worker is killed and gracefully
 * restarted once each per five minutes (scripts/soak-processes.ts). Prints a line a minute, then the
 * figures (scripts/soak-report.ts) and a verdict: 0 lost, 0 duplicated (except in flight at a kill),
 * no healthy poll missed and healthy lateness p99 under 1 s. Exits 0 when met, 1 when not.
 * Everything it starts is stopped at the end, on Ctrl-C too. docs/performance.md describes it.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { adminQuery, benchServer, benchWorkerEnv, repoRoot, stopChild, withDatabase } from './bench-lib.ts';
import { printSoakReport, type SoakRun } from './soak-print.ts';
import { ExtraWorker, freePort, spawnLogged, waitForApp } from './soak-processes.ts';
import { startNulErrorReceiver, startPromptReceiver, startSlowReceiver } from './soak-receivers.ts';
import { notificationFigures, openingsIn, pollFigures, tableSizes } from './soak-report.ts';
import { HEALTHY_INTERVAL_SECONDS, healthyPhases, seedSoak } from './soak-seed.ts';
import {
  HealthyScript,
  startHangingUpstream,
  startHealthyUpstream,
  startNulUpstream,
  startOddUpstream,
} from './soak-upstreams.ts';

const usage = 'npm run soak -- [--minutes N] [--healthy N] [--noisy N] [--hanging N] [--keep]';
const MINUTE = 60_000;
/** After the run, how long deliveries may take to reach the receiver. */
const DRAIN_MS = 60_000;

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '20' },
      healthy: { type: 'string', default: '24' },
      noisy: { type: 'string', default: '10' },
      hanging: { type: 'string', default: '400' },
      keep: { type: 'boolean', default: false },
    },
  });
  const n = (name: keyof typeof values) => {
    const x = Number(values[name]);
    if (!Number.isInteger(x) || x < 1) throw new Error(`--${name} must be a whole number above 0\n${usage}`);
    return x;
  };
  return {
    minutes: n('minutes'),
    counts: { healthy: n('healthy'), nul: n('noisy'), odd: n('noisy'), hanging: n('hanging') },
    keep: values.keep,
  };
}

const interrupted = new AbortController();
/** Why the run stopped early when the app itself went away. */
let appDied: string | null = null;
let app: ChildProcess | null = null;
let worker: ExtraWorker | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted.signal.aborted) {
      // A second Ctrl-C: no more waiting.
      app?.kill('SIGKILL');
      worker?.child?.kill('SIGKILL');
      process.exit(1);
    }
    console.log(`\n${signal}: stopping the soak and everything it started…`);
    void worker?.stop();
    interrupted.abort();
  });
}

async function run(o: ReturnType<typeof parse>, cleanup: (() => Promise<unknown>)[]): Promise<boolean> {
  const { adminUrl, embedded } = await benchServer();
  if (embedded) cleanup.push(() => embedded.stop());
  const name = `soak_${Date.now()}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  cleanup.push(() =>
    o.keep
      ? Promise.resolve(console.log(`Kept database ${name}`))
      : adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  );
  const url = withDatabase(adminUrl, name);
  const logDir = path.join(repoRoot, '.data/soak', name);
  mkdirSync(logDir, { recursive: true });

  const intervalMs = HEALTHY_INTERVAL_SECONDS * 1000;
  const script = new HealthyScript(intervalMs);
  const upstreams = {
    healthy: await startHealthyUpstream(script),
    nul: await startNulUpstream(),
    odd: await startOddUpstream(),
    hanging: await startHangingUpstream(),
  };
  const receivers = {
    prompt: await startPromptReceiver(),
    slow: await startSlowReceiver(),
    nulError: await startNulErrorReceiver(),
  };
  for (const s of [...Object.values(upstreams), ...Object.values(receivers)]) cleanup.push(() => s.close());

  const env = benchWorkerEnv(url, {});
  // Every upstream is a host of its own here, so the product's per-host limits stay at their defaults:
  // they are part of what the soak exercises (the benchmarks lift them for their one simulator).
  delete env.ENGINE_HOST_CONCURRENCY;
  delete env.ENGINE_HOST_RATE_PER_SECOND;
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const appLog = path.join(logDir, 'app.log');
  const workerLog = path.join(logDir, 'worker.log');
  console.log(`Soak database ${name}; app ${appUrl}; logs in ${path.relative(repoRoot, logDir)}/`);
  const started = spawnLogged(
    ['scripts/start.ts'],
    { ...env, PORT: String(port), HOST: '127.0.0.1', SERVE_CLIENT: 'false', COOKIE_SECURE: 'false' },
    appLog,
  );
  app = started;
  cleanup.push(() => stopChild(started));
  started.once('exit', (code, signal) => {
    if (interrupted.signal.aborted) return;
    appDied = `the app exited (${signal ?? `exit ${code}`}); see its log`;
    interrupted.abort();
  });
  await waitForApp(started, appUrl, 120_000);
  if (interrupted.signal.aborted) return false;

  const seeding = Date.now();
  const { healthy: h, nul, odd, hanging } = upstreams;
  const targets = {
    upstreams: { healthy: h.url, nul: nul.url, odd: odd.url, hanging: hanging.url },
    hooks: { prompt: receivers.prompt.url, slow: receivers.slow.url, nulError: receivers.nulError.url },
  };
  const seeded = await seedSoak(`${appUrl}/api`, targets, o.counts, interrupted.signal);
  console.log(`Seeded through the REST API in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
  const extra = new ExtraWorker(env, workerLog);
  worker = extra;
  extra.start();
  cleanup.push(() => extra.stop());
  const phases = await healthyPhases(seeded, 120_000, interrupted.signal);

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  cleanup.push(() => db.end());
  const sizesAtStart = await tableSizes(db);
  const from = Date.now() + 1000;
  const until = from + o.minutes * MINUTE;
  script.start(phases, from, until);
  const openings = script.allOpenings();
  const healthy = { ids: [...seeded.healthy.keys()], phases: [...phases.values()], intervalMs };
  const account = () =>
    notificationFigures(openings, receivers.prompt.arrivals, seeded.healthy, extra.kills, intervalMs);
  console.log(
    `Running ${o.minutes} min: ${o.counts.healthy} healthy alerts (${openings.length} scripted openings), ` +
      `${o.counts.nul} NUL-host, ${o.counts.odd} odd-host and ${o.counts.hanging} hanging-host alerts`,
  );

  const stop = interrupted.signal;
  const progress = async () => {
    for (let m = 1; m <= o.minutes; m++) {
      // Ten seconds into the next minute, so the minute's last polls are written.
      const wait = from + m * MINUTE + 10_000 - Date.now();
      if (wait > 0) await sleep(wait, undefined, { signal: stop }).catch(() => {});
      if (stop.aborted) return;
      const a = from + (m - 1) * MINUTE;
      const polls = await pollFigures(db, healthy, a, a + MINUTE);
      const n = openingsIn(account(), openings, a, a + MINUTE);
      const events = extra.events.filter((e) => e.at >= a && e.at < a + MINUTE).map((e) => e.what);
      console.log(
        `[minute ${m}/${o.minutes}] healthy polls written ${polls.done}/${polls.due} due, lateness p50 ${polls.p50} ms ` +
          `p99 ${polls.p99} ms; openings notified ${n.received}/${n.expected}; hanging connections ` +
          `${upstreams.hanging.open()}${events.length ? `; ${events.join('; ')}` : ''}`,
      );
    }
  };
  await Promise.all([extra.runSchedule(from, until, stop), progress()]);

  // Deliveries still under way when the run ends: until every opening is notified, within a bound.
  const drainEnd = until + DRAIN_MS;
  while (!stop.aborted && Date.now() < drainEnd && account().lost.length > 0) {
    await sleep(1000, undefined, { signal: stop }).catch(() => {});
  }
  // Repeats of deliveries in flight at the last kill arrive a lease later.
  await sleep(5_000, undefined, { signal: stop }).catch(() => {});
  if (stop.aborted) return false;

  const report: SoakRun = {
    minutes: o.minutes,
    counts: o.counts,
    from,
    until,
    intervalMs,
    perMinute: [],
    polls: await pollFigures(db, healthy, from, until),
    notifications: account(),
    events: extra.events,
    upstreams,
    receivers,
    logs: { app: appLog, worker: workerLog },
    sizes: { start: sizesAtStart, end: await tableSizes(db) },
  };
  for (let a = from; a < until; a += MINUTE) {
    report.perMinute.push({
      polls: await pollFigures(db, healthy, a, Math.min(a + MINUTE, until)),
      openings: openingsIn(report.notifications, openings, a, a + MINUTE),
    });
  }
  return printSoakReport(report);
}

const cleanup: (() => Promise<unknown>)[] = [];
let met = false;
try {
  met = await run(parse(process.argv.slice(2)), cleanup);
} catch (error) {
  if (!interrupted.signal.aborted) console.error(`Soak failed: ${(error as Error).message ?? error}`);
} finally {
  // From here on the app's exit is expected, and a Ctrl-C stops at once.
  if (!interrupted.signal.aborted) interrupted.abort();
  for (const step of cleanup.reverse()) await step().catch((e) => console.error(`Clean-up: ${e}`));
}
if (appDied) console.error(`Soak failed: ${appDied}`);
process.exit(met ? 0 : 1);
