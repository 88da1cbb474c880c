/**
 * API benchmark (docs/performance.md): the authenticated REST read GET /api/users/me/registrations against
 * a bare Fastify route running the same SQL (the same repository functions, so the same statements)
 * on a pool of the same size, side by side in one run. Prints both throughputs and their ratio
 * (target ≥ 0.85). Standalone: `node scripts/bench-api.ts [--duration 5] [--rounds 4] [--connections 16] [--split]`.
 * `--split` also measures the bare handler mounted inside the app, so every request passes the app's hooks
 * (security headers, cookies, body guard, request logger) but not authentication, tRPC or the mapping.
 *
 * Runs on a PostgreSQL of its own (embedded, data under .data/bench-api) so other work on a shared
 * server does not skew one side; BENCH_DATABASE_URL names another server (a scratch database is
 * created and dropped there). Load comes from autocannon in a worker thread, so the servers keep this
 * process's main thread to themselves. The sides alternate in short rounds, so a burst of outside load
 * lands on both.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig } from '../server/src/config.ts';
import { createDatabase, type DatabaseHandle } from '../server/src/db/database.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../server/src/db/embedded.ts';
import { migrateToLatest } from '../server/src/db/migrator.ts';
import { buildApp } from '../server/src/http/app.ts';
import { listAlerts, listServiceLinks } from '../server/src/modules/alerts/alerts.repo.ts';
import { createServices } from '../server/src/modules/services.ts';
import { createLogger } from '../server/src/platform/logger.ts';

export interface ApiBenchOptions {
  /** Seconds per measured round. */
  durationSeconds?: number;
  /** Measured rounds per side, alternating bare and authenticated. */
  rounds?: number;
  connections?: number;
  /** Alerts the benchmark user owns (the list's length). */
  alerts?: number;
  poolSize?: number;
  /** A PostgreSQL server URL; default BENCH_DATABASE_URL, else an embedded server of the bench's own. */
  databaseUrl?: string | undefined;
  /** Also measure the bare handler inside the app: what the app's per-request hooks cost. */
  split?: boolean;
  log?: (line: string) => void;
}

export interface Throughput {
  requestsPerSecond: number;
  /** Average size of an answer, headers included. */
  bytesPerResponse: number;
  /** This process's CPU time (servers and load generator) per answered request. */
  cpuMicrosPerRequest: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export interface ApiBenchResult {
  app: Throughput;
  bare: Throughput;
  /** The bare handler inside the app (with `split`). */
  inside?: Throughput;
  /** app ÷ bare requests per second. */
  ratio: number;
  settings: Required<Omit<ApiBenchOptions, 'databaseUrl' | 'log' | 'split'>>;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_RATIO = 0.85;
const JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-0123456789';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A scratch database on the given server (or an embedded one), dropped by `drop()`. */
async function scratchDatabase(serverUrl: string | undefined) {
  let embedded: EmbeddedDatabase | null = null;
  let adminUrl = serverUrl;
  if (!adminUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: path.join(repoRoot, '.data/bench-api'),
      port: await freePort(),
      database: 'postgres',
    });
    adminUrl = embedded.url;
  }
  const name = `resort_bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      await embedded?.stop();
    },
  };
}

async function inject<T>(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  token?: string,
  body?: unknown,
) {
  const res = await app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (res.statusCode >= 300) throw new Error(`bench setup ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<{ data: T }>().data;
}

/** An administrator, a template with a rule preset, and a planner with `count` alerts on it. */
async function seed(app: FastifyInstance, count: number) {
  type Auth = { tokens: { accessToken: string }; user: { id: string } };
  const password = 'Bench2Castle';
  // The first account of a fresh instance is super_admin.
  const admin = await inject<Auth>(app, 'POST', '/api/auth/register', undefined, {
    name: 'Bench Admin',
    email: 'bench-admin@example.com',
    password,
  });
  const template = await inject<{ id: string }>(app, 'POST', '/api/templates', admin.tokens.accessToken, {
    name: 'Bench resort availability',
    resortCode: 'BENCH',
    targetUrl: 'https://upstream.example.com/availability',
    method: 'GET',
    responseWatchPresets: {
      all: [{ id: 'rooms', label: 'Rooms listed', condition: { path: 'rooms', operator: 'exists' } }],
    },
  });
  const planner = await inject<Auth>(app, 'POST', '/api/auth/register', undefined, {
    name: 'Bench Planner',
    email: 'bench-planner@example.com',
    password,
  });
  const token = planner.tokens.accessToken;
  const me = await inject<{ notificationServices: { id: string }[] }>(app, 'GET', '/api/users/me', token);
  for (let i = 0; i < count; i++) {
    await inject(app, 'POST', '/api/registrations', token, {
      templateId: template.id,
      title: `Alert ${i + 1}`,
      partyName: 'The Benchmarks',
      tags: ['bench'],
      watchConfig: { all: [{ path: 'rooms', operator: 'exists', presetId: 'rooms' }], any: [] },
      notificationServiceIds: me.notificationServices.map((s) => s.id),
    });
  }
  return { token, userId: planner.user.id };
}

/** The bare handler: the list's statements for one user, the rows answered as they come. */
function bareAlerts(handle: DatabaseHandle, user: () => string) {
  return async () => {
    const rows = await listAlerts(handle.db, { userId: user() });
    const links = await listServiceLinks(
      handle.db,
      rows.map((r) => r.id),
    );
    return { data: rows.map((row) => ({ ...row, links: links.filter((l) => l.alertId === row.id) })) };
  };
}

/** The baseline: Fastify, the same pool size, the same statements, no auth, tRPC, mapping or headers. */
async function startBareServer(handle: DatabaseHandle, userId: string): Promise<FastifyInstance> {
  const bare = Fastify();
  bare.get(
    '/bare/alerts',
    bareAlerts(handle, () => userId),
  );
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return bare;
}

async function measure(
  url: string,
  token: string | undefined,
  seconds: number,
  connections: number,
): Promise<autocannon.Result & { cpuMicros: number }> {
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    workers: 1,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const used = process.cpuUsage(cpu);
  return { ...result, cpuMicros: used.user + used.system };
}

function summarise(results: (autocannon.Result & { cpuMicros: number })[]): Throughput {
  const requests = results.reduce((n, r) => n + r['2xx'], 0);
  const seconds = results.reduce((n, r) => n + r.duration, 0);
  const bytes = results.reduce((n, r) => n + r.throughput.total, 0);
  return {
    bytesPerResponse: Math.round(bytes / Math.max(1, requests)),
    cpuMicrosPerRequest: Math.round(results.reduce((n, r) => n + r.cpuMicros, 0) / Math.max(1, requests)),
    requestsPerSecond: Math.round(requests / seconds),
    latencyP99Ms: Math.max(...results.map((r) => r.latency.p99)),
    requests,
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
  };
}

export async function runApiBench(options: ApiBenchOptions = {}): Promise<ApiBenchResult> {
  const settings = {
    durationSeconds: options.durationSeconds ?? 5,
    rounds: options.rounds ?? 4,
    connections: options.connections ?? 16,
    alerts: options.alerts ?? 10,
    poolSize: options.poolSize ?? 10,
  };
  const log = options.log ?? ((line: string) => console.log(line));
  const database = await scratchDatabase(options.databaseUrl ?? process.env.BENCH_DATABASE_URL);
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    JWT_SECRET,
    SERVE_CLIENT: 'false',
    DATABASE_POOL_SIZE: String(settings.poolSize),
  });
  const appHandle = createDatabase(database.url, { max: settings.poolSize });
  const bareHandle = createDatabase(database.url, { max: settings.poolSize });
  let app: FastifyInstance | null = null;
  let bare: FastifyInstance | null = null;
  try {
    await migrateToLatest(appHandle.db);
    const services = await createServices({
      config,
      db: appHandle.db,
      boss: null,
      log: createLogger('silent'),
      // As the runtime does: the account cache listens for changes, so requests read no account row.
      databaseUrl: database.url,
    });
    app = await buildApp(services);
    let seededUser = '';
    if (options.split)
      app.get(
        '/bench/inside',
        bareAlerts(appHandle, () => seededUser),
      );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { token, userId } = await seed(app, settings.alerts);
    seededUser = userId;
    bare = await startBareServer(bareHandle, userId);

    const appUrl = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}/api/users/me/registrations`;
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as net.AddressInfo).port}/bare/alerts`;
    const insideUrl = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}/bench/inside`;
    log(
      `API bench: ${settings.alerts} alerts, pool ${settings.poolSize}, ${settings.connections} connections, ` +
        `${settings.rounds} × ${settings.durationSeconds} s per side`,
    );
    // Warm both up (JIT, pool connections), then alternate so drift on a shared machine hits both.
    await measure(bareUrl, undefined, 2, settings.connections);
    await measure(appUrl, token, 2, settings.connections);
    const appRuns: (autocannon.Result & { cpuMicros: number })[] = [];
    const bareRuns: (autocannon.Result & { cpuMicros: number })[] = [];
    const insideRuns: (autocannon.Result & { cpuMicros: number })[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      bareRuns.push(await measure(bareUrl, undefined, settings.durationSeconds, settings.connections));
      if (options.split)
        insideRuns.push(await measure(insideUrl, token, settings.durationSeconds, settings.connections));
      appRuns.push(await measure(appUrl, token, settings.durationSeconds, settings.connections));
    }
    const result: ApiBenchResult = {
      app: summarise(appRuns),
      bare: summarise(bareRuns),
      ...(options.split ? { inside: summarise(insideRuns) } : {}),
      ratio: 0,
      settings,
    };
    // Three decimals, compared unrounded: 0.696 is under the target, not "0.70: met".
    result.ratio = Math.round((result.app.requestsPerSecond / result.bare.requestsPerSecond) * 1000) / 1000;
    const row = (label: string, t: Throughput) =>
      `  ${label.padEnd(44)} ${String(t.requestsPerSecond).padStart(7)} req/s   p99 ${t.latencyP99Ms} ms   ${t.cpuMicrosPerRequest} µs CPU/request   ${t.bytesPerResponse} B/answer` +
      (t.non2xx || t.errors ? `   (${t.non2xx} non-2xx, ${t.errors} errors)` : '');
    log(row('bare Fastify route, same SQL', result.bare));
    if (result.inside) log(row('the bare handler inside the app', result.inside));
    log(row('authenticated GET /api/users/me/registrations', result.app));
    log(
      `  ratio (authenticated ÷ bare)                 ${result.ratio.toFixed(3)}   ` +
        `(target ≥ ${TARGET_RATIO.toFixed(2)}: ${result.ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`,
    );
    return result;
  } finally {
    await app?.close();
    await bare?.close();
    await appHandle.destroy();
    await bareHandle.destroy();
    await database.drop();
  }
}

function flag(argv: string[], name: string): number | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : undefined;
}

/** `npm run bench -- api [--duration 5] [--rounds 4] [--connections 16] [--split]`. */
export async function runApiBenchCli(argv: string[]): Promise<void> {
  await runApiBench({
    durationSeconds: flag(argv, 'duration'),
    rounds: flag(argv, 'rounds'),
    connections: flag(argv, 'connections'),
    split: argv.includes('--split'),
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runApiBenchCli(process.argv.slice(2));
}
