/**
 * `npm run bench -- delivery --burst N [--slow K --slow-ms MS] [--channel webhook|slack|email|ntfy|web-push]`:
 * N alerts of one planner become due at the same moment against a loopback upstream that shows a
 * room open, so every alert's poll matches at once; one `npm run worker` process (default
 * configuration, apart from the engine's per-host politeness towards the one loopback upstream)
 * polls them and delivers the notifications to loopback receivers (a loopback SMTP server for
 * e-mail). With --slow K, K of the alerts notify a second receiver that answers after --slow-ms
 * (default 10,000 ms; longer than the delivery timeout means it times out). Prints deliveries/s,
 * match → receipt p50/p99/max (the fast receiver's and the slow one's apart), duplicates, CPU,
 * the worker's delivery settings, as a table and one JSON line. docs/performance.md keeps the runs.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../server/src/config.ts';
import { createDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrator.ts';
import {
  type BrowserPushKeys,
  browserPushKeys,
  decryptPush,
} from '../server/test/helpers/web-push-decrypt.ts';
import { benchWatch, createBackendCpu, dbStats, insertBenchTemplate } from './bench-engine-setup.ts';
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

const usage = `npm run bench -- delivery --burst N [--slow K] [--slow-ms MS] [--channel webhook|slack|email|ntfy|web-push]
  [--timeout S] [--env KEY=VALUE ...] [--keep]`;

type Channel = 'webhook' | 'slack' | 'email' | 'ntfy' | 'web-push';
const channels: Channel[] = ['webhook', 'slack', 'email', 'ntfy', 'web-push'];

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      burst: { type: 'string', default: '1000' },
      slow: { type: 'string', default: '0' },
      'slow-ms': { type: 'string', default: '10000' },
      channel: { type: 'string', default: 'webhook' },
      timeout: { type: 'string', default: '120' },
      env: { type: 'string', multiple: true, default: [] },
      keep: { type: 'boolean', default: false },
    },
  });
  const n = (v: string, name: string) => {
    const x = Number(v);
    if (!Number.isInteger(x) || x < 0) throw new Error(`--${name} must be a whole number\n${usage}`);
    return x;
  };
  const channel = values.channel as Channel;
  if (!channels.includes(channel)) throw new Error(`unknown --channel\n${usage}`);
  const burst = n(values.burst, 'burst');
  const slow = n(values.slow, 'slow');
  if (burst < 1 || slow > burst)
    throw new Error(`--burst must be at least 1 and --slow at most --burst\n${usage}`);
  if (slow > 0 && channel === 'email') throw new Error('--slow needs an HTTP channel (not email)');
  return {
    burst,
    slow,
    slowMs: n(values['slow-ms'], 'slow-ms'),
    channel,
    timeoutSeconds: n(values.timeout, 'timeout'),
    env: envPairs(values.env),
    keep: values.keep,
  };
}

/** One arrival at a receiver: the message's identity (for duplicates) and the alert it is about. */
interface Arrival {
  id: string;
  alertKey: string;
  at: number;
  slow: boolean;
  /** A push message as it arrived, opened once the run is over (see openSealed). */
  sealed?: Buffer;
}

/**
 * Opens the push messages of a web-push run, as the browser would, and names each by its tag (the
 * alert's id). Done after the measurement, so the receiver's decryption neither slows the receipts
 * nor counts in the bench's CPU: the figures are the product's.
 */
function openSealed(arrivals: Arrival[], push: BrowserPushKeys): void {
  for (const a of arrivals) {
    if (!a.sealed) continue;
    try {
      const { tag } = JSON.parse(decryptPush(a.sealed, push)) as { tag: string };
      a.id = tag;
      a.alertKey = tag;
    } catch {
      // a body the bench did not send: left under its arrival name, matching no alert
    }
    delete a.sealed;
  }
}

/** A loopback HTTP receiver; `delayMs` holds every answer back (the slow destination). */
async function startHttpSink(arrivals: Arrival[], channel: Channel, delayMs: number) {
  const slow = delayMs > 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        if (channel === 'webhook') {
          const parsed = JSON.parse(body) as { id: string };
          arrivals.push({ id: String(req.headers['webhook-id']), alertKey: parsed.id, at, slow });
        } else if (channel === 'ntfy') {
          // ntfy's JSON publish: the title names the alert.
          const { title } = JSON.parse(body) as { title: string };
          arrivals.push({ id: title, alertKey: title, at, slow });
        } else if (channel === 'web-push') {
          // Kept sealed until the run is over (openSealed): one arrival each until then.
          const name = `push-${arrivals.length}`;
          arrivals.push({ id: name, alertKey: name, at, slow, sealed: Buffer.concat(chunks) });
        } else {
          // Slack's payload: "*{alert title}*\n{message}"; the title names the alert.
          const title = /^\*(.+?)\*/.exec((JSON.parse(body) as { text: string }).text)?.[1] ?? '';
          arrivals.push({ id: title, alertKey: title, at, slow });
        }
      } catch {
        // a body the bench did not send: ignored
      }
      const answer = () => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      };
      if (slow) setTimeout(answer, delayMs).unref();
      else answer();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A loopback SMTP server that reads only the headers it needs (Message-ID, Subject). */
async function startSmtpSink(arrivals: Arrival[]) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const at = Date.now();
        const head =
          Buffer.concat(chunks)
            .toString('utf8')
            .split(/\r?\n\r?\n/)[0] ?? '';
        const messageId = /^Message-ID:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? '';
        const subject = /^Subject:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? '';
        arrivals.push({ id: messageId, alertKey: subject.replace(/^Resort Alerts: /, ''), at, slow: false });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, server };
}

/** The upstream every alert polls: a room is open. */
async function startUpstream() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"rooms":[{"available":true}]}');
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function seed(
  db: pg.Client,
  o: ReturnType<typeof parse>,
  upstreamUrl: string,
  fastUrl: string,
  slowUrl: string | null,
  push: BrowserPushKeys,
) {
  // One planner per receiver (an account has one WEBHOOK channel): the slow receiver's is the second.
  const planner = async () => {
    const email = `bench.${randomBytes(4).toString('hex')}@example.com`;
    const user = await db.query<{ id: string }>(
      `INSERT INTO users (email, name, password_hash) VALUES ($1, 'Bench planner', 'x') RETURNING id`,
      [email],
    );
    return { userId: user.rows[0]!.id, email };
  };
  const serviceOf = async (owner: { userId: string; email: string }, url: string, label: string) => {
    const [type, config] =
      o.channel === 'webhook'
        ? [
            'WEBHOOK',
            {
              url: `${url}/hook`,
              method: 'POST',
              headers: [],
              bodyTemplate: '{"at":"{{metadata.timestamp}}","id":"{{registrationId}}"}',
            },
          ]
        : o.channel === 'slack'
          ? ['SLACK_WEBHOOK', { url: `${url}/services/T0/B0/bench` }]
          : o.channel === 'ntfy'
            ? ['NTFY', { url: `${url}/ntfy`, topic: 'bench', priority: 3 }]
            : o.channel === 'web-push'
              ? [
                  'WEB_PUSH',
                  {
                    endpoint: `${url}/push/bench`,
                    p256dh: push.p256dh,
                    auth: push.auth.toString('base64url'),
                  },
                ]
              : ['EMAIL', { toEmail: owner.email }];
    const row = await db.query<{ id: string }>(
      `INSERT INTO notification_services (user_id, type, label, config, signing_secret)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [owner.userId, type, label, JSON.stringify(config), `whsec_${randomBytes(32).toString('base64')}`],
    );
    return row.rows[0]!.id;
  };
  const fastOwner = await planner();
  const slowOwner = slowUrl ? await planner() : null;
  await serviceOf(fastOwner, fastUrl, 'Bench receiver');
  if (slowOwner && slowUrl) await serviceOf(slowOwner, slowUrl, 'Bench slow receiver');
  const template = await insertBenchTemplate(db, `${upstreamUrl}/availability`);
  // Not due until the burst: an hour's interval, due a day from now.
  await db.query(
    `INSERT INTO alerts (user_id, template_id, title, party_name, custom_headers, custom_query,
                                overrides, watch_config, polling_interval_seconds, next_due_at)
     SELECT CASE WHEN i <= $5 THEN coalesce($6::uuid, $1::uuid) ELSE $1::uuid END, $2,
            'Bench alert ' || i, 'Party ' || (i % 97), '{}', '{}', '{}', $3::jsonb, 3600,
            now() + interval '1 day'
     FROM generate_series(1, $4::int) AS i`,
    [fastOwner.userId, template, JSON.stringify(benchWatch), o.burst, o.slow, slowOwner?.userId ?? null],
  );
  // Each alert notifies its owner's receiver: the first K alerts the slow one, the rest the fast one.
  await db.query(
    `INSERT INTO alert_notification_services (alert_id, notification_service_id)
     SELECT r.id, s.id FROM alerts r JOIN notification_services s ON s.user_id = r.user_id`,
  );
  await db.query('ANALYZE alerts');
}

export async function runDeliveryBench(argv: string[]): Promise<void> {
  const o = parse(argv);
  const { adminUrl, embedded } = await benchServer();
  const name = `bench_delivery_${Date.now()}`;
  await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  const url = withDatabase(adminUrl, name);
  const handle = createDatabase(url, { max: 2 });
  await migrateToLatest(handle.db);
  await handle.destroy();

  const arrivals: Arrival[] = [];
  // The one browser subscription of a web-push run (its messages are opened with it after the run).
  const push = browserPushKeys();
  const upstream = await startUpstream();
  const fast =
    o.channel === 'email' ? await startSmtpSink(arrivals) : await startHttpSink(arrivals, o.channel, 0);
  const slow = o.slow > 0 ? await startHttpSink(arrivals, o.channel, Math.max(1, o.slowMs)) : null;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  let worker: Awaited<ReturnType<typeof startChild>> | null = null;
  try {
    await seed(db, o, upstream.url, fast.url, slow?.url ?? null, push);
    // Every delivery setting is left at its default.
    const workerEnv = benchWorkerEnv(url, {
      ...(o.channel === 'email' ? { SMTP_URL: fast.url } : {}),
      ...o.env,
    });
    const config = loadConfig(workerEnv);
    const settings = Object.fromEntries(
      Object.entries(config).filter(([k]) => k.startsWith('DELIVERY_') || k.startsWith('ENGINE_HOST_')),
    );
    worker = await startChild(workerNodeArgs(), [], workerEnv);
    const pid = worker.child.pid!;
    // Let the worker start (migrations checked, pools open, loops running).
    await sleep(3000);

    const backends = createBackendCpu();
    backends.sample((await dbStats(db, name)).pids ?? []);
    const cpu0 = cpuSeconds(pid);
    const benchCpu0 = process.cpuUsage();
    const load0 = os.loadavg();
    const wall0 = Date.now();
    // The burst: every alert due now.
    await db.query('UPDATE alerts SET next_due_at = now()');
    const ids = new Set<string>();
    const expected = o.burst;
    const deadline = wall0 + o.timeoutSeconds * 1000;
    let peakRss = 0;
    for (;;) {
      await sleep(100);
      peakRss = Math.max(peakRss, memoryMb(pid).rss);
      ids.clear();
      for (const a of arrivals) ids.add(a.id);
      if (ids.size >= expected || Date.now() > deadline) break;
      if (Date.now() % 1000 < 100) backends.sample((await dbStats(db, name)).pids ?? []);
    }
    // Late duplicates of the last deliveries, if any, arrive within this.
    await sleep(1000);
    const wall = (Date.now() - wall0) / 1000;
    const workerCpu = (cpuSeconds(pid) - cpu0) / wall;
    const benchCpu = process.cpuUsage(benchCpu0);
    backends.sample((await dbStats(db, name)).pids ?? []);
    const dbCpu = backends.total() / wall;
    openSealed(arrivals, push);

    // When each alert's poll saw the match: the notification's own timestamp.
    const matches = await db.query<{ id: string; title: string; at: Date }>(
      `SELECT r.id, r.title, (n.metadata->>'timestamp')::timestamptz AS at
       FROM notifications n JOIN alerts r ON r.id = n.alert_id`,
    );
    const matchedAt = new Map<string, number>();
    for (const m of matches.rows) {
      matchedAt.set(m.id, m.at.getTime());
      matchedAt.set(m.title, m.at.getTime());
    }
    const firstMatch = Math.min(...matches.rows.map((m) => m.at.getTime()));
    const lastMatch = Math.max(...matches.rows.map((m) => m.at.getTime()));
    const seen = new Set<string>();
    const latencies = { fast: [] as number[], slow: [] as number[] };
    let duplicates = 0;
    let lastReceipt = 0;
    for (const a of arrivals) {
      if (seen.has(a.id)) {
        duplicates++;
        continue;
      }
      seen.add(a.id);
      lastReceipt = Math.max(lastReceipt, a.at);
      const m = matchedAt.get(a.alertKey);
      if (m !== undefined) (a.slow ? latencies.slow : latencies.fast).push(a.at - m);
    }
    latencies.fast.sort((a, b) => a - b);
    latencies.slow.sort((a, b) => a - b);
    const delivered = seen.size;
    const span = (lastReceipt - firstMatch) / 1000;
    const recorded = (
      await db.query<{ status: string; n: number }>(
        'SELECT status, count(*)::int AS n FROM notification_deliveries GROUP BY status ORDER BY status',
      )
    ).rows;
    const figures = (xs: number[]) => ({
      count: xs.length,
      p50: percentile(xs, 0.5),
      p99: percentile(xs, 0.99),
      max: xs.at(-1) ?? null,
    });
    const result = {
      burst: o.burst,
      channel: o.channel,
      slow: o.slow,
      slowMs: o.slow > 0 ? o.slowMs : null,
      matches: matches.rows.length,
      matchSpreadMs: matches.rows.length ? lastMatch - firstMatch : null,
      delivered,
      allDelivered: delivered >= expected,
      firstMatchToLastReceiptSeconds: delivered ? round(span, 2) : null,
      deliveriesPerSecond: delivered && span > 0 ? round(delivered / span) : null,
      latencyMs: figures(latencies.fast),
      slowLatencyMs: o.slow > 0 ? figures(latencies.slow) : null,
      duplicates,
      recorded: Object.fromEntries(recorded.map((r) => [r.status, r.n])),
      workerCpuPercent: round(workerCpu * 100),
      /** CPU milliseconds per delivered match (its poll and its delivery), per process. */
      cpuMsPerMatch: {
        worker: delivered ? round((workerCpu * wall * 1000) / delivered, 2) : null,
        database: delivered ? round((dbCpu * wall * 1000) / delivered, 2) : null,
        bench: delivered ? round((benchCpu.user + benchCpu.system) / 1000 / delivered, 2) : null,
      },
      workerPeakRssMb: round(peakRss),
      benchProcessCpuPercent: round(((benchCpu.user + benchCpu.system) / 1e6 / wall) * 100),
      databaseBackendsCpuPercent: round(dbCpu * 100),
      settings,
      machine: {
        cpus: os.cpus().length,
        loadAverageBefore: load0.map((l) => round(l, 2)),
        loadAverageAfter: os.loadavg().map((l) => round(l, 2)),
      },
    };
    const fmt = (f: ReturnType<typeof figures> | null) =>
      f ? `${f.p50} / ${f.p99} / ${f.max} (${f.count})` : 'n/a';
    printTable(
      `Delivery benchmark: a burst of ${o.burst} matches, ${o.channel}${o.slow ? `, ${o.slow} to a receiver answering after ${o.slowMs} ms` : ''}`,
      [
        [
          'settings',
          Object.entries(settings)
            .map(([k, v]) => `${k}=${v}`)
            .join(' '),
        ],
        ['matches (spread of the polls, ms)', `${result.matches} (${result.matchSpreadMs})`],
        ['delivered (expected)', `${delivered} (${expected})${result.allDelivered ? '' : ' NOT ALL'}`],
        ['first match → last receipt (s)', result.firstMatchToLastReceiptSeconds],
        ['deliveries/s', result.deliveriesPerSecond],
        ['match → receipt p50 / p99 / max (ms)', fmt(result.latencyMs)],
        ['  slow receiver p50 / p99 / max (ms)', o.slow ? fmt(result.slowLatencyMs) : 'n/a'],
        ['duplicates (same id received again)', duplicates],
        ['recorded', recorded.map((r) => `${r.status} ${r.n}`).join(', ')],
        ['worker CPU (% of one core)', result.workerCpuPercent],
        [
          'CPU ms per match: worker / database / bench',
          `${result.cpuMsPerMatch.worker} / ${result.cpuMsPerMatch.database} / ${result.cpuMsPerMatch.bench}`,
        ],
        ['worker peak RSS (MB)', result.workerPeakRssMb],
        ['bench process CPU (receivers, upstream) (%)', result.benchProcessCpuPercent],
        ['database backends CPU (%)', result.databaseBackendsCpuPercent],
        [
          'load average before / after',
          `${result.machine.loadAverageBefore.join(' ')} / ${result.machine.loadAverageAfter.join(' ')}`,
        ],
      ],
    );
    console.log(JSON.stringify(result));
  } finally {
    if (worker) await stopChild(worker.child);
    for (const s of [
      upstream.server,
      ...(o.channel === 'email' ? [] : [fast.server as http.Server]),
      slow?.server,
    ]) {
      if (s instanceof http.Server) {
        s.closeAllConnections();
        s.close();
      }
    }
    if (o.channel === 'email') (fast.server as SMTPServer).close();
    await db.end();
    if (!o.keep) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    else console.log(`Kept database ${name}`);
    await embedded?.stop();
  }
}
