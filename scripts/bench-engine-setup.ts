/** Setup and measurement helpers of the engine benchmark (scripts/bench-engine.ts). */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { cpuSeconds } from './bench-lib.ts';

/** The webhook receiver: match → receiver latency from the notification's own timestamp. */
export async function startReceiver() {
  const arrivals: { matchedAt: number; latencyMs: number }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { at: string };
        const matchedAt = Date.parse(body.at);
        arrivals.push({ matchedAt, latencyMs: now - matchedAt });
      } catch {
        // a body the bench did not send: ignored
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals, server };
}

/** The benchmarks' alert rule: the first room is open; notify on the first match. */
export const benchWatch = {
  all: [{ path: 'rooms[0].available', operator: 'equals', value: true, label: 'Standard room open' }],
  any: [],
  notifyOn: 'firstMatch',
  notifyOnResolved: false,
  debounceSeconds: 0,
};

/** The benchmarks' template: a GET of the loopback upstream's availability. Answers its id. */
export async function insertBenchTemplate(db: pg.Client, targetUrl: string): Promise<string> {
  const template = await db.query<{ id: string }>(
    `INSERT INTO templates (name, resort_code, target_url, method, default_headers, default_query, editable_fields)
     VALUES ('Bench resort rooms', 'BR', $1, 'GET', '{}', '{"resort":"POLY"}', '[]') RETURNING id`,
    [targetUrl],
  );
  return template.rows[0]!.id;
}

/** The benchmarks' planner and its webhook channel to the receiver. */
export async function seedPlanner(
  db: pg.Client,
  hookUrl: string,
): Promise<{ userId: string; hookId: string }> {
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (email, name, password_hash) VALUES ($1, 'Bench planner', 'x') RETURNING id`,
    [`bench.${randomBytes(4).toString('hex')}@example.com`],
  );
  const userId = user.rows[0]!.id;
  const hook = await db.query<{ id: string }>(
    `INSERT INTO notification_services (user_id, type, label, config, signing_secret)
     VALUES ($1, 'WEBHOOK', 'Bench receiver', $2, $3) RETURNING id`,
    [
      userId,
      JSON.stringify({
        url: hookUrl,
        method: 'POST',
        headers: [],
        bodyTemplate: '{"at":"{{metadata.timestamp}}","id":"{{registrationId}}"}',
      }),
      randomBytes(24).toString('base64url'),
    ],
  );
  return { userId, hookId: hook.rows[0]!.id };
}

/** Seeds the benchmark's planner, webhook channel, template and alerts, set-based. */
export async function seed(
  db: pg.Client,
  o: { alerts: number; interval: number; shared: boolean },
  simulatorUrl: string,
  hookUrl: string,
) {
  const { userId, hookId } = await seedPlanner(db, hookUrl);
  const template = await insertBenchTemplate(db, `${simulatorUrl}/availability`);
  // Set-based: one statement seeds every alert; distinct requests unless --shared (100 distinct).
  await db.query(
    `INSERT INTO alerts (user_id, template_id, title, party_name, custom_headers, custom_query,
                                overrides, watch_config, polling_interval_seconds)
     SELECT $1, $2, 'Bench alert ' || i, 'Party ' || (i % 97), '{}',
       CASE WHEN $3 THEN jsonb_build_object('checkIn', to_char(date '2030-01-01' + (i % 50), 'YYYY-MM-DD'),
                                           'adults', 1 + i % 2)
            ELSE jsonb_build_object('checkIn', to_char(date '2030-01-01' + (i % 300), 'YYYY-MM-DD'),
                                    'adults', 1 + i % 4, 'ref', i) END,
       '{}', $4::jsonb, $5
     FROM generate_series(1, $6::int) AS i`,
    [userId, template, o.shared, JSON.stringify(benchWatch), o.interval, o.alerts],
  );
  await db.query(
    `INSERT INTO alert_notification_services (alert_id, notification_service_id)
     SELECT id, $1 FROM alerts`,
    [hookId],
  );
  // Fresh statistics, as after any bulk import once autovacuum has run.
  await db.query('ANALYZE alerts');
}

/**
 * The database's commits and rows written so far, its backends (autovacuum's included; not the one
 * answering this reading, which is the benchmark's own) and the server's writers, which serve every
 * database of the server (`serverPids`: checkpointer, background writer, WAL writer).
 */
export async function dbStats(db: pg.Client, name: string) {
  const { rows } = await db.query<{
    xact: number;
    ins: number;
    upd: number;
    pids: number[];
    serverPids: number[];
  }>(
    `SELECT xact_commit::float8 AS xact, tup_inserted::float8 AS ins, tup_updated::float8 AS upd,
            (SELECT array_agg(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) AS pids,
            (SELECT array_agg(pid) FROM pg_stat_activity
             WHERE backend_type IN ('checkpointer', 'background writer', 'walwriter')) AS "serverPids"
     FROM pg_stat_database WHERE datname = $1`,
    [name],
  );
  return rows[0]!;
}

/**
 * CPU of a set of processes over a window, e.g. the benchmark database's own backends (not
 * autovacuum, the WAL writer or the checkpointer): each pid's first and last reading. With
 * `newFromZero`, a process first seen after the first sample counts from 0 (it started within the
 * window); otherwise from its first reading. A process that starts and ends between two samples is
 * not seen.
 */
export function createBackendCpu(options: { newFromZero?: boolean } = {}) {
  const seen = new Map<number, { first: number; last: number }>();
  let started = false;
  return {
    sample(pids: number[]) {
      for (const pid of pids) {
        try {
          const cpu = cpuSeconds(pid);
          const s = seen.get(pid);
          if (s) s.last = cpu;
          else seen.set(pid, { first: started && options.newFromZero ? 0 : cpu, last: cpu });
        } catch {
          // a process that ended, or one this user cannot read
        }
      }
      started = true;
    },
    total: () => [...seen.values()].reduce((n, s) => n + s.last - s.first, 0),
    byPid: () => [...seen].map(([pid, s]) => ({ pid, cpu: s.last - s.first })),
    count: () => seen.size,
    newSinceStart: () => [...seen.values()].filter((s) => s.first === 0).length,
  };
}
