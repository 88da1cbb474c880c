/**
 * `npm run demo`: the whole product on a fresh embedded database (under .data/demo, wiped at each
 * start) with the loopback resort simulator. Seeds an admin and a planner through the REST API, a
 * template group and a template pointing at the simulator, a webhook inbox, and alerts whose rules
 * hold within the first polls; then prints where to look. Ctrl-C stops everything it started.
 *
 * Ports (override with the variables): app PORT 3000, simulator SIMULATOR_PORT 4100, webhook inbox
 * INBOX_PORT 4200, embedded PostgreSQL EMBEDDED_PG_PORT 54332.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../server/src/config.ts';
import { type Runtime, startRuntime } from '../server/src/runtime.ts';
import { type Simulator, startSimulator } from './simulator.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN = { name: 'Demo Admin', email: 'admin@demo.local', password: 'DemoAdmin2026' };
const PLANNER = { name: 'Demo Planner', email: 'planner@demo.local', password: 'DemoPlanner2026' };
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const dataDir = path.join(root, '.data/demo');

// What this process started, stopped in reverse order on Ctrl-C, SIGTERM or a failed start.
let simulator: Simulator | null = null;
let inboxServer: Server | null = null;
let runtime: Runtime | null = null;
let started = false;
let stopRequested = false;

async function stopAll(code: number): Promise<never> {
  const force = setTimeout(() => process.exit(1), 15_000);
  force.unref();
  await runtime?.stop();
  await new Promise((resolve) => (inboxServer ? inboxServer.close(resolve) : resolve(null)));
  inboxServer?.closeAllConnections();
  await simulator?.close();
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopRequested) return;
    stopRequested = true;
    console.log(`\n${signal}: stopping the demo…`);
    // During start-up, main() stops at its next step, so nothing half-started is left behind.
    if (started) void stopAll(0);
  });
}

interface InboxEntry {
  at: string;
  path: string;
  body: string;
}

/** The webhook inbox: logs each delivery and lists them, newest first, on its own page. */
function startInbox(listenPort: number): Promise<Server> {
  const inbox: InboxEntry[] = [];
  const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url === '/index.html')) {
      const items = inbox
        .slice()
        .reverse()
        .map(
          (n) =>
            `<li><time>${n.at}</time> <code>${escapeHtml(n.path)}</code><pre>${escapeHtml(n.body)}</pre></li>`,
        )
        .join('');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Webhook inbox</title>` +
          `<h1>Webhook inbox (${inbox.length})</h1><p>Deliveries to ${escapeHtml(`http://127.0.0.1:${listenPort}/hooks/…`)}, newest first; the page refreshes every 5 s.</p><ol reversed>${items}</ol>`,
      );
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      inbox.push({ at: new Date().toISOString(), path: req.url ?? '', body });
      let text = body;
      try {
        text = (JSON.parse(body) as { content?: string }).content ?? body;
      } catch {
        // Not JSON: log it as it came.
      }
      console.log(`[webhook inbox] ${text.slice(0, 300)}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve(server));
  });
}

async function main() {
  if (!existsSync(path.join(root, 'client/dist/index.html'))) {
    console.log('No client build found: building the SPA once (npm run build)…');
    if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' }).status !== 0) {
      throw new Error('building the client failed; see the output above.');
    }
  }
  // A fresh demo every time: the seeded data and the simulator's URL always agree.
  await rm(dataDir, { recursive: true, force: true });

  simulator = await startSimulator({ port: port('SIMULATOR_PORT', 4100), seed: 7, openProbability: 0.5 });
  inboxServer = await startInbox(port('INBOX_PORT', 4200));
  if (stopRequested) return stopAll(0);
  const inboxUrl = `http://127.0.0.1:${(inboxServer.address() as AddressInfo).port}`;

  // The embedded database whatever DATABASE_URL says: the demo must never seed a real database.
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const config = loadConfig({
    ...env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(port('EMBEDDED_PG_PORT', 54332)),
    PORT: String(port('PORT', 3000)),
    HOST: process.env.HOST ?? '127.0.0.1',
    OUTBOUND_ALLOWLIST: '127.0.0.1',
    COOKIE_SECURE: 'false',
    FIRST_USER_SUPER_ADMIN: 'true',
    RUN_WORKER: 'true',
    SERVE_CLIENT: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  });
  console.log('Starting Resort Alerts on an embedded PostgreSQL (first start takes a few seconds)…');
  runtime = await startRuntime(config);
  if (stopRequested) return stopAll(0);
  const appUrl = `http://localhost:${config.PORT}`;
  const seeded = await seed(`http://127.0.0.1:${config.PORT}/api`, simulator.url, inboxUrl);
  if (stopRequested) return stopAll(0);
  started = true;

  console.log(`
Resort Alerts demo is running.

  App            ${appUrl}
  Admin          ${ADMIN.email} / ${ADMIN.password}   (templates, proxies, every alert)
  Planner        ${PLANNER.email} / ${PLANNER.password}   (${seeded.alerts} alerts, a webhook)
  Webhook inbox  ${inboxUrl}   (refreshes every 5 s)
  Simulator      ${simulator.url}/availability?resort=GF&checkIn=${seeded.checkIn}&adults=2

Sign in as the planner and open Dashboard: the first notifications arrive within a minute (press
Refresh under "Recent notifications"); each delivery is also printed below as it reaches the inbox.
Ctrl-C stops everything; the data under .data/demo is wiped at the next start.
`);
}

async function seed(api: string, simulatorUrl: string, inboxUrl: string) {
  async function call<T>(method: string, route: string, token: string | null, body?: unknown): Promise<T> {
    const res = await fetch(`${api}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
  }
  const register = async (who: typeof ADMIN) =>
    (await call<{ tokens: { accessToken: string } }>('POST', '/auth/register', null, who)).tokens.accessToken;

  // The first account of an instance becomes super_admin; the second is an ordinary user.
  const adminToken = await register(ADMIN);
  const plannerToken = await register(PLANNER);

  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const checkIn = day(45);
  const checkOut = day(49);
  const group = await call<{ id: string }>('POST', '/template-groups', adminToken, {
    name: 'Demo Resorts',
    description: 'Templates on the loopback resort simulator.',
    displayOrder: 0,
  });
  const template = await call<{ id: string }>('POST', '/templates', adminToken, {
    name: 'Grand Floridian (simulator)',
    description: 'Room availability and nightly prices from the loopback resort simulator.',
    resortCode: 'GF',
    templateGroupId: group.id,
    targetUrl: `${simulatorUrl}/availability`,
    method: 'GET',
    pollingIntervalSeconds: 10,
    defaultQuery: { resort: 'GF', checkIn, checkOut, adults: 2 },
    editableFields: [
      {
        target: 'QUERY',
        path: 'checkIn',
        label: 'Check-in',
        fieldType: 'DATE',
        required: true,
        defaultValue: checkIn,
      },
      {
        target: 'QUERY',
        path: 'checkOut',
        label: 'Check-out',
        fieldType: 'DATE',
        required: true,
        defaultValue: checkOut,
      },
      {
        target: 'QUERY',
        path: 'adults',
        label: 'Adults',
        fieldType: 'NUMBER',
        required: true,
        defaultValue: 2,
      },
    ],
    responseWatchPresets: {
      notifyOn: 'firstMatch',
      any: [
        {
          id: 'any-room',
          label: 'Any room available',
          condition: { path: 'anyAvailable', operator: 'equals', value: true },
          defaultEnabled: true,
        },
        {
          id: 'price',
          label: 'Nightly price at most',
          condition: { path: 'rooms[*].price', operator: 'lte' },
          input: { type: 'number', label: 'Max price', required: true, defaultValue: 450 },
        },
      ],
    },
  });

  const webhook = await call<{ id: string }>('POST', '/users/me/notification-services', plannerToken, {
    type: 'WEBHOOK',
    label: 'Demo inbox',
    config: { url: `${inboxUrl}/hooks/demo`, method: 'POST' },
  });

  // Rules that hold on the simulator's answers (prices are 180–599 and rooms open often with this
  // seed), so the first polls notify; the third follows prices as they change over the minutes.
  const alerts = [
    {
      title: 'Any room opens at the Grand Floridian',
      partyName: 'The Demo Family',
      tags: ['demo', 'rooms'],
      watchConfig: {
        any: [{ path: 'anyAvailable', operator: 'equals', value: true, presetId: 'any-room' }],
        notifyOn: 'firstMatch',
      },
    },
    {
      title: 'Nightly price at most 700',
      partyName: 'The Demo Family',
      tags: ['demo', 'price'],
      watchConfig: {
        any: [{ path: 'rooms[*].price', operator: 'lte', value: 700, presetId: 'price' }],
        notifyOn: 'firstMatch',
      },
    },
    {
      title: 'A bargain night at 250 or less',
      partyName: 'The Bargain Hunters',
      tags: ['demo', 'price'],
      watchConfig: {
        any: [{ path: 'rooms[*].price', operator: 'lte', value: 250, presetId: 'price' }],
        notifyOn: 'firstMatch',
        notifyOnResolved: true,
      },
    },
  ];
  for (const alert of alerts) {
    await call('POST', '/registrations', plannerToken, {
      templateId: template.id,
      ...alert,
      overrides: { query: { checkIn, checkOut, adults: 2 } },
      pollingIntervalSeconds: 10,
      notificationServiceIds: [webhook.id],
    });
  }
  return { checkIn, alerts: alerts.length };
}

try {
  await main();
} catch (error) {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `The demo could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
  await stopAll(1);
}
