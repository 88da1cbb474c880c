import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WatchConfigInput } from '@resort/shared';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { createEngineFromServices } from '../../src/engine/start-engine.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/** Polls `check` until it answers a truthy value (or throws after `timeoutMs`). Never a fixed sleep. */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last) return last as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await sleep(options.intervalMs ?? 100);
  }
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/**
 * A loopback upstream whose answer per path the test sets, counting every request per path and the
 * peak number of requests in flight at once.
 */
export async function startUpstream() {
  const answers = new Map<string, Answer>();
  const hits = new Map<string, number>();
  // In flight and peak per Host header: two names for this server are two hosts to the engine.
  const active = new Map<string, number>();
  const peaks = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const host = req.headers.host ?? '';
    active.set(host, (active.get(host) ?? 0) + 1);
    peaks.set(host, Math.max(peaks.get(host) ?? 0, active.get(host)!));
    try {
      for await (const _ of req) {
        // drain the request body
      }
      const answer = answers.get(path) ?? { status: 404, body: { message: 'no answer set' } };
      if (answer.delayMs) await sleep(answer.delayMs);
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(text);
    } finally {
      active.set(host, active.get(host)! - 1);
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    set(path: string, answer: Answer) {
      answers.set(path, answer);
    },
    hits: (path: string) => hits.get(path) ?? 0,
    /** The most requests in flight at once with this Host header. */
    peak: (host: string) => peaks.get(host) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Upstream = Awaited<ReturnType<typeof startUpstream>>;

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** A loopback webhook receiver that keeps every delivery with its arrival time. */
export async function startWebhookReceiver() {
  const received: { at: number; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      body = { text: Buffer.concat(chunks).toString('utf8') };
    }
    received.push({ at: Date.now(), headers: req.headers, body });
    res.writeHead(204).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A planner with a webhook channel pointing at `webhookUrl` (rows written directly: setup only), for
 * the given user or a new one.
 */
export async function createPlanner(db: Database, webhookUrl: string, userId?: string) {
  const user = userId
    ? { id: userId }
    : await db
        .insertInto('users')
        .values({
          email: `engine.${randomBytes(5).toString('hex')}@example.com`,
          name: 'Engine Planner',
          password_hash: 'not-a-real-hash',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
  const service = await db
    .insertInto('notification_services')
    .values({
      user_id: user.id,
      type: 'WEBHOOK',
      label: 'Engine test hook',
      config: JSON.stringify({
        url: webhookUrl,
        method: 'POST',
        headers: [],
        bodyTemplate:
          '{"message":"{{message}}","registrationId":"{{registrationId}}","at":"{{metadata.timestamp}}"}',
      }),
      signing_secret: randomBytes(24).toString('base64url'),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: user.id, serviceId: service.id };
}

export async function createTemplate(db: Database, targetUrl: string, name = 'Lakeside Lodge rooms') {
  const row = await db
    .insertInto('templates')
    .values({
      name,
      resort_code: 'LL',
      target_url: targetUrl,
      method: 'GET',
      default_headers: '{}',
      default_query: '{}',
      editable_fields: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const roomOpen: WatchConfigInput = {
  all: [{ path: 'rooms[*].available', operator: 'equals', value: true, label: 'Room open' }],
  notifyOn: 'firstMatch',
};

/** Alerts on `templateId`, linked to the planner's webhook; answers their ids in order. */
export async function createAlerts(
  db: Database,
  planner: { userId: string; serviceId: string },
  templateId: string,
  alerts: {
    watch?: WatchConfigInput;
    query?: Record<string, string | number>;
    interval?: number;
    title?: string;
  }[],
): Promise<string[]> {
  const rows = await db
    .insertInto('alerts')
    .values(
      alerts.map((a, i) => ({
        user_id: planner.userId,
        template_id: templateId,
        title: a.title ?? `Alert ${i + 1}`,
        party_name: 'The Parkers',
        custom_headers: '{}',
        custom_query: JSON.stringify(a.query ?? {}),
        overrides: '{}',
        watch_config: JSON.stringify({
          any: [],
          notifyOnResolved: false,
          debounceSeconds: 0,
          ...(a.watch ?? roomOpen),
        }),
        polling_interval_seconds: a.interval ?? 5,
      })),
    )
    .returning('id')
    .execute();
  await db
    .insertInto('alert_notification_services')
    .values(rows.map((r) => ({ alert_id: r.id, notification_service_id: planner.serviceId })))
    .execute();
  return rows.map((r) => r.id);
}

export function rooms(available: boolean, price = 300) {
  return { rooms: [{ code: 'R1', available, price }] };
}

export async function pollRuns(db: Database, alertId: string) {
  return db.selectFrom('poll_runs').selectAll().where('alert_id', '=', alertId).orderBy('due_at').execute();
}

export async function notificationsOf(db: Database, alertId: string) {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('alert_id', '=', alertId)
    .orderBy('created_at')
    .execute();
}

/** The database's clock: due times and poll runs are on it, not on this process's. */
export async function dbNow(db: Database): Promise<Date> {
  return (await sql<{ now: Date }>`SELECT now() AS now`.execute(db)).rows[0]!.now;
}

export async function alertRow(db: Database, alertId: string) {
  return db.selectFrom('alerts').selectAll().where('id', '=', alertId).executeTakeFirstOrThrow();
}

/** What every engine test runs with: loopback upstreams allowed, quick ticks, a short look-ahead. */
export const engineTestEnv = {
  OUTBOUND_ALLOWLIST: '127.0.0.1',
  ENGINE_TICK_MS: '50',
  ENGINE_LOOKAHEAD_MS: '200',
};

/**
 * The engine tests' set-up: a loopback upstream, a test app on its own database (pg-boss, with
 * `engineTestEnv` under `env`), a planner and this process's engine (started when `start`).
 * With `receiver` the planner's webhook points at a loopback receiver (else nowhere); `deliveries`
 * also runs a delivery worker; `owner` makes the planner a registered user with a token.
 * `close()` stops the engine and closes everything.
 */
export async function startEngineApp(
  options: {
    env?: Record<string, string>;
    boss?: boolean;
    receiver?: boolean;
    deliveries?: boolean;
    owner?: boolean;
    start?: boolean;
  } = {},
) {
  const upstream = await startUpstream();
  const receiver = options.receiver || options.deliveries ? await startWebhookReceiver() : null;
  const t: TestApp = await startTestApp({
    boss: options.boss ?? true,
    deliveries: options.deliveries ?? false,
    env: { ...engineTestEnv, ...options.env },
  });
  const owner: TestUser | null = options.owner ? await createUser(t) : null;
  const planner = await createPlanner(t.db, receiver?.url ?? 'http://127.0.0.1:9/unused', owner?.id);
  const engine = createEngineFromServices(t.services);
  if (options.start) await engine.start();
  return {
    t,
    upstream,
    receiver,
    owner,
    planner,
    engine,
    async close() {
      await engine.stop();
      await t.close();
      await upstream.close();
      await receiver?.close();
    },
  };
}

export type EngineApp = Awaited<ReturnType<typeof startEngineApp>>;
