/**
 * `npm run demo`: the whole product on the embedded database with the loopback resort simulator.
 * Seeds an admin and a planner, a template group and a template pointing at the simulator, a webhook
 * inbox, and alerts whose rules fire within a minute; then prints where to look.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../server/src/config.ts';
import { startRuntime, stopOnSignals } from '../server/src/runtime.ts';
import { startSimulator } from './simulator.ts';

const ADMIN = { name: 'Demo Admin', email: 'admin@demo.local', password: 'DemoAdmin2026' };
const PLANNER = { name: 'Demo Planner', email: 'planner@demo.local', password: 'DemoPlanner2026' };
const port = Number(process.env.PORT ?? 3000);

const simulator = await startSimulator({
  port: Number(process.env.SIMULATOR_PORT ?? 4100),
  seed: 7,
  openProbability: 0.5,
});

// A webhook inbox: logs each delivery and lists them at its own page.
const inbox: { at: string; body: string }[] = [];
const inboxServer = createServer((req, res) => {
  if (req.method === 'GET') {
    const items = inbox
      .slice()
      .reverse()
      .map((n) => `<li><time>${n.at}</time><pre>${n.body.replace(/</g, '&lt;')}</pre></li>`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><meta http-equiv="refresh" content="5"><title>Webhook inbox</title><h1>Webhook inbox (${inbox.length})</h1><ol>${items}</ol>`,
    );
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => {
    body += c;
  });
  req.on('end', () => {
    inbox.push({ at: new Date().toISOString(), body });
    console.log(`webhook inbox ← ${body.slice(0, 200)}`);
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) =>
  inboxServer.listen(Number(process.env.INBOX_PORT ?? 4200), '127.0.0.1', resolve),
);
const inboxUrl = `http://127.0.0.1:${(inboxServer.address() as AddressInfo).port}`;

const config = loadConfig({
  ...process.env,
  DATA_DIR: process.env.DATA_DIR ?? '.data/demo',
  EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT ?? '54332',
  PORT: String(port),
  OUTBOUND_ALLOWLIST: '127.0.0.1',
  COOKIE_SECURE: 'false',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
const runtime = await startRuntime(config);
stopOnSignals(runtime);
process.on('exit', () => {
  inboxServer.close();
  void simulator.close();
});
const api = `http://127.0.0.1:${port}/api`;

async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return undefined as T;
  const json = (await res.json()) as { data?: T; message?: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
  return json.data as T;
}

/** Registers the account (or signs in when it exists) and answers its access token. */
async function account(who: typeof ADMIN, roles?: string[]): Promise<string> {
  const login = () =>
    call<{ tokens: { accessToken: string } }>('POST', '/auth/login', null, {
      email: who.email,
      password: who.password,
    });
  try {
    await call('POST', '/auth/register', null, who);
  } catch {
    // Already there from an earlier demo run.
  }
  if (roles) {
    await runtime.services.db.updateTable('users').set({ roles }).where('email', '=', who.email).execute();
  }
  return (await login()).tokens.accessToken;
}

const adminToken = await account(ADMIN, ['user', 'admin', 'super_admin']);
const plannerToken = await account(PLANNER, ['user']);

const checkIn = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);
const templates = await call<{ id: string; name: string }[]>('GET', '/templates', adminToken);
let template = templates.find((t) => t.name === 'Grand Floridian (simulator)');
if (!template) {
  const groups = await call<{ id: string; name: string }[]>('GET', '/template-groups', adminToken);
  const group =
    groups.find((g) => g.name === 'Demo Resorts') ??
    (await call<{ id: string }>('POST', '/template-groups', adminToken, {
      name: 'Demo Resorts',
      displayOrder: 0,
    }));
  template = await call<{ id: string; name: string }>('POST', '/templates', adminToken, {
    name: 'Grand Floridian (simulator)',
    description: 'Room availability from the loopback resort simulator.',
    resortCode: 'GF',
    templateGroupId: group.id,
    targetUrl: `${simulator.url}/availability`,
    method: 'GET',
    pollingIntervalSeconds: 10,
    defaultQuery: { resort: 'GF', checkIn, adults: 2 },
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
        path: 'adults',
        label: 'Adults',
        fieldType: 'NUMBER',
        required: true,
        defaultValue: 2,
      },
    ],
    responseWatchPresets: {
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
          input: { type: 'number', label: 'Max price', defaultValue: 450 },
        },
      ],
    },
  });
}

const me = await call<{
  notificationServices: { id: string; type: string }[];
  registrations: { title: string | null }[];
}>('GET', '/users/me', plannerToken);
const webhook =
  me.notificationServices.find((s) => s.type === 'WEBHOOK') ??
  (await call<{ id: string }>('POST', '/users/me/notification-services', plannerToken, {
    type: 'WEBHOOK',
    label: 'Demo inbox',
    config: {
      url: `${inboxUrl}/hooks/demo`,
      method: 'POST',
      headers: [],
      bodyTemplate: '{"content": "{{message}}"}',
    },
  }));

const alerts = [
  {
    title: 'Any room opens at the Grand Floridian',
    partyName: 'The Demo Family',
    watchConfig: {
      any: [{ path: 'anyAvailable', operator: 'equals', value: true, presetId: 'any-room' }],
      notifyOn: 'firstMatch',
    },
  },
  {
    title: 'Price drop under 700',
    partyName: 'The Demo Family',
    watchConfig: {
      any: [{ path: 'rooms[*].price', operator: 'lte', value: 700, presetId: 'price' }],
      notifyOn: 'firstMatch',
    },
  },
];
for (const alert of alerts) {
  if (me.registrations.some((r) => r.title === alert.title)) continue;
  await call('POST', '/registrations', plannerToken, {
    templateId: template.id,
    ...alert,
    tags: ['demo'],
    overrides: { query: { checkIn, adults: 2 } },
    pollingIntervalSeconds: 10,
    notificationServiceIds: [webhook.id],
  });
}

console.log(`
Resort Alerts demo is running.

  App            http://localhost:${port}
  Admin          ${ADMIN.email} / ${ADMIN.password}
  Planner        ${PLANNER.email} / ${PLANNER.password}
  Webhook inbox  ${inboxUrl}   (refreshes every 5 s)
  Simulator      ${simulator.url}/availability?resort=GF&checkIn=${checkIn}&adults=2

The planner's alerts poll every 10 s; notifications reach the inbox and the planner's dashboard
within a minute. Ctrl-C stops everything (data stays in ${config.DATA_DIR}).
`);
