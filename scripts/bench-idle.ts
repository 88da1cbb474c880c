/**
 * `npm run bench -- idle [--warmup 30] [--duration 120] [--keep]`: what an instance with nothing to do
 * costs. Creates a fresh database (on DATABASE_URL's server, else the embedded one), starts the app
 * exactly as `npm start` runs it (production settings, its in-process worker, the built SPA served),
 * waits the warm-up, then samples for the duration: the app process tree's CPU and peak RSS from /proc,
 * the CPU of the PostgreSQL backends connected to its database (every backend seen, including those
 * that come and go), and the database's transactions. Prints a table and one JSON line, stops the app
 * and drops the database. docs/performance.md, "Idle", records runs and how to read them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createBackendCpu } from './bench-engine-setup.ts';
import {
  adminQuery,
  benchServer,
  benchWorkerEnv,
  cpuSeconds,
  printTable,
  repoRoot,
  round,
  stopChild,
  withDatabase,
} from './bench-lib.ts';

const SAMPLE_MS = 250;

/** `npm start` exactly as package.json defines it (`exec node <flags> scripts/start.ts`), as Node arguments. */
function startNodeArgs(): string[] {
  const pkg = JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = pkg.scripts.start!.split(/\s+/).filter((w) => w !== 'exec');
  if (words[0] !== 'node') throw new Error(`unexpected start script: ${pkg.scripts.start}`);
  return words.slice(1);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The process and its descendants (the app starts none today; an embedded PostgreSQL would be one). */
function processTree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(name));
      parents.set(ppid, list);
    } catch {
      // ended while listing
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Starts the app as `npm start` does and resolves once it listens. */
async function startApp(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, startNodeArgs(), {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the app exited with ${code} before listening`));
    child.once('exit', onExit);
    lines.on('line', (line) => {
      if (process.env.BENCH_VERBOSE) console.error(`[app] ${line}`);
      if (line.includes('"msg":"listening"')) {
        child.off('exit', onExit);
        resolve();
      }
    });
  });
  return child;
}

export async function runIdleBench(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      warmup: { type: 'string', default: '30' },
      duration: { type: 'string', default: '120' },
      keep: { type: 'boolean', default: false },
    },
  });
  const warmup = Number(values.warmup);
  const duration = Number(values.duration);
  const { adminUrl, embedded } = await benchServer();
  const name = `bench_idle_${Date.now()}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  let app: ChildProcess | null = null;
  try {
    const port = await freePort();
    // `npm start` in production: every setting at its default but the database, the port and a secret.
    const env = benchWorkerEnv(withDatabase(adminUrl, name), {});
    const settings = {
      DATABASE_URL: env.DATABASE_URL!,
      JWT_SECRET: env.JWT_SECRET!,
      NODE_ENV: env.NODE_ENV!,
    };
    const loadBefore = os.loadavg().map((l) => round(l, 2));
    app = await startApp({ ...settings, PORT: String(port), HOST: '127.0.0.1' });
    const pid = app.pid!;
    console.log(`App listening on ${port}; warming up for ${warmup} s, then measuring for ${duration} s`);
    await sleep(warmup * 1000);

    // What wakes it: each backend's latest statement, counted whenever its state changed since the
    // last sample (a sample: statements closer together than SAMPLE_MS on one backend count once).
    const statements = new Map<string, number>();
    const lastChange = new Map<number, string>();
    /** Each backend's application name (or first statement seen), to say whose CPU it is. */
    const roles = new Map<number, string>();
    const stats = async () => {
      const { rows } = await admin.query<{
        pid: number;
        changed: string | null;
        query: string;
        app: string;
        type: string;
      }>(
        `SELECT pid, application_name AS app, backend_type AS type, state_change::text AS changed, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
         FROM pg_stat_activity WHERE datname = $1`,
        [name],
      );
      for (const r of rows) {
        if (!roles.has(r.pid))
          roles.set(r.pid, r.type !== 'client backend' ? r.type : r.app || r.query.slice(0, 40));
        if (r.changed === null || lastChange.get(r.pid) === r.changed) continue;
        if (lastChange.has(r.pid) || r.query) statements.set(r.query, (statements.get(r.query) ?? 0) + 1);
        lastChange.set(r.pid, r.changed);
      }
      const xact = await admin.query<{ xact: number }>(
        'SELECT (xact_commit + xact_rollback)::float8 AS xact FROM pg_stat_database WHERE datname = $1',
        [name],
      );
      return { xact: xact.rows[0]!.xact, pids: rows.map((r) => r.pid) };
    };
    await stats();
    statements.clear();
    const appCpu = createBackendCpu({ newFromZero: true });
    const backends = createBackendCpu({ newFromZero: true });
    const rootCpu0 = cpuSeconds(pid);
    const stats0 = await stats();
    appCpu.sample(processTree(pid));
    backends.sample(stats0.pids ?? []);
    const wall0 = Date.now();
    let peakRss = 0;
    let connections = 0;
    while (Date.now() - wall0 < duration * 1000) {
      await sleep(SAMPLE_MS);
      const tree = processTree(pid);
      appCpu.sample(tree);
      peakRss = Math.max(
        peakRss,
        tree.reduce((n, p) => n + rssMb(p), 0),
      );
      const s = await stats();
      connections = Math.max(connections, s.pids?.length ?? 0);
      backends.sample(s.pids ?? []);
    }
    const wall = (Date.now() - wall0) / 1000;
    const stats1 = await stats();
    backends.sample(stats1.pids ?? []);
    appCpu.sample(processTree(pid));
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
    // The bench's own two statements per sample run on the admin database, not this one.
    const transactions = stats1.xact - stats0.xact;
    const appPercent = (appCpu.total() / wall) * 100;
    const backendPercent = (backends.total() / wall) * 100;
    const woke = [...statements].sort((a, b) => b[1] - a[1]);
    const result = {
      durationSeconds: round(wall),
      warmupSeconds: warmup,
      appCpuPercent: round(appPercent, 2),
      appMainCpuPercent: round(((cpuSeconds(pid) - rootCpu0) / wall) * 100, 2),
      backendsCpuPercent: round(backendPercent, 2),
      totalCpuPercent: round(appPercent + backendPercent, 2),
      appPeakRssMb: round(peakRss),
      appRssHighWaterMb: round(hwm),
      transactionsPerSecond: round(transactions / wall, 2),
      statementsSeenPerMinute: Object.fromEntries(woke.map(([q, n]) => [q, round((n / wall) * 60, 1)])),
      backends: { seen: backends.count(), openedDuringRun: backends.newSinceStart(), maxAtOnce: connections },
      machine: {
        cpus: os.cpus().length,
        loadAverageBefore: loadBefore,
        loadAverage: os.loadavg().map((l) => round(l, 2)),
      },
    };
    printTable(`Idle benchmark: npm start with nothing to do, ${round(wall)} s measured`, [
      ['app CPU, process tree (% of one core)', result.appCpuPercent],
      ['database backends CPU (% of one core)', result.backendsCpuPercent],
      ['total (target < 0.5)', result.totalCpuPercent],
      ['app peak RSS (MB; target < 200)', result.appPeakRssMb],
      ['app RSS high-water since start (MB)', result.appRssHighWaterMb],
      ['database transactions/s', result.transactionsPerSecond],
      [
        'backends seen / opened during run / most at once',
        `${result.backends.seen} / ${result.backends.openedDuringRun} / ${result.backends.maxAtOnce}`,
      ],
      ['load average before (1/5/15 min)', result.machine.loadAverageBefore.join(' ')],
      ['load average after (1/5/15 min)', result.machine.loadAverage.join(' ')],
    ]);
    const byRole = new Map<string, number>();
    for (const { pid, cpu } of backends.byPid()) {
      const role = roles.get(pid) ?? 'unknown';
      byRole.set(role, (byRole.get(role) ?? 0) + cpu);
    }
    printTable(
      'Database backends CPU by application name (% of one core)',
      [...byRole].sort((a, b) => b[1] - a[1]).map(([role, cpu]) => [role, round((cpu / wall) * 100, 2)]),
    );
    printTable(
      'Statements seen (sampled every 250 ms: at most one per backend per sample), per minute',
      woke.map(([q, n]) => [q, round((n / wall) * 60, 1)]),
    );
    console.log(JSON.stringify(result));
  } finally {
    if (app) await stopChild(app);
    await admin.end();
    if (!values.keep) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    else console.log(`Kept database ${name}`);
    await embedded?.stop();
  }
}
