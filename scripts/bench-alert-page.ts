/**
 * Alert page benchmark ([alert-insight] acceptance 4): the alert page's data (GET
 * /api/registrations/{id}/insight) for an alert with 48 h of polls at a 5 s interval (34,560 poll
 * runs), 2,000 notifications with deliveries and a kept answer, among other alerts' runs. Prints the
 * answer time (p50, p95, max over sequential requests) and the plans of the two poll-run statements.
 * Then the page as a user sees it: the built SPA (`npm run build` first) is served by the same app,
 * Debian's Chromium signs in as the alert's owner through the login form and loads /alerts/{id}
 * `--page-loads` times, each timed from navigation start until the timeline's chart and the rule
 * explanation are visible. The first load is cold (browser cache cleared after sign-in), the rest
 * warm. Prints the settings, a table of the figures and one JSON line (`{"bench":"alert-page",…}`).
 *
 *   npm run bench -- alert-page [--requests 40] [--other-alerts 20] [--page-loads 5]
 *
 * `--page-loads 0` skips the browser (and the need for a client build). CHROMIUM_PATH overrides
 * /usr/bin/chromium.
 *
 * Uses BENCH_DATABASE_URL or DATABASE_URL (a scratch database is created and dropped there).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CHROMIUM_PATH, launchChromium } from '../e2e/helpers/chromium.ts';
import { loadConfig } from '../server/src/config.ts';
import { createDatabase } from '../server/src/db/database.ts';
import { migrateToLatest } from '../server/src/db/migrator.ts';
import { buildApp } from '../server/src/http/app.ts';
import { bucketSecondsFor } from '../server/src/modules/alert-insight/alert-insight.service.ts';
import { POLL_BLOCK_SIZE } from '../server/src/modules/alerts/alert-write-back.repo.ts';
import { createServices } from '../server/src/modules/services.ts';
import { createLogger } from '../server/src/platform/logger.ts';

const RUNS = 48 * 720; // 48 h at one poll per 5 s
const CLIENT_DIST = path.resolve(import.meta.dirname, '../client/dist');
const VIEWPORT = { width: 1366, height: 900 };
/** The timeline's drawn chart (recharts' bars) and the rule explanation's table. */
const CHART_SELECTOR = '[data-testid="alert-timeline"] svg.recharts-surface .recharts-bar-rectangle';
const EXPLANATION_SELECTOR = '[data-testid="rule-explanation"]';
/** When (page clock) the page's insight request finished, from the resource timing entries. */
function insightReceivedAt(): number | null {
  const page = globalThis as unknown as {
    performance: { getEntriesByType(type: string): { name: string; responseEnd: number }[] };
  };
  const ends = page.performance
    .getEntriesByType('resource')
    .filter((e) => e.name.toLowerCase().includes('insight'))
    .map((e) => e.responseEnd);
  return ends.length > 0 ? Math.max(...ends) : null;
}

/** What the page's clock reads once both show, run in the page (the scripts compile without the DOM library). */
function bothVisibleAt([chart, explanation]: readonly [string, string]): number | false {
  type Box = { getClientRects(): { length: number } };
  const page = globalThis as unknown as {
    document: { querySelector(selector: string): Box | null };
    getComputedStyle(el: Box): { visibility: string };
    performance: { now(): number };
  };
  const visible = (el: Box | null) =>
    el !== null && el.getClientRects().length > 0 && page.getComputedStyle(el).visibility !== 'hidden';
  return visible(page.document.querySelector(chart)) && visible(page.document.querySelector(explanation))
    ? page.performance.now()
    : false;
}

/**
 * Signs in through the login form as `account`, then loads `/alerts/{id}` `loads` times; each
 * figure is the page's own clock (ms since its navigation started) when the timeline chart and the
 * rule explanation are both visible. The HTTP cache is cleared before the first load.
 */
async function timePageLoads(
  baseUrl: string,
  alertId: string,
  account: { email: string; password: string },
  loads: number,
): Promise<{ visible: number; data: number | null }[]> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORT });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    // As e2e/helpers/accounts.ts signIn: a protected page sends the visitor to the login form.
    await page.goto('/');
    await page.waitForURL(/\/login/);
    await page.getByLabel(/^Email/).fill(account.email);
    await page.getByLabel(/^Password/).fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    const times: { visible: number; data: number | null }[] = [];
    for (let i = 0; i < loads; i++) {
      await page.goto(`/alerts/${alertId}`, { waitUntil: 'commit' });
      try {
        const handle = await page.waitForFunction(
          bothVisibleAt,
          [CHART_SELECTOR, EXPLANATION_SELECTOR] as const,
          {
            polling: 'raf',
            timeout: 30_000,
          },
        );
        const visible = (await handle.jsonValue()) as number;
        times.push({ visible, data: await page.evaluate(insightReceivedAt) });
      } catch (error) {
        const main = await page
          .locator('main')
          .textContent()
          .catch(() => null);
        throw new Error(
          `page load ${i + 1}: ${(error as Error).message}; at ${page.url()}; page errors ${JSON.stringify(errors)}; ` +
            `main: ${main?.slice(0, 300)}`,
        );
      }
      if (page.url() !== `${baseUrl}/alerts/${alertId}`)
        throw new Error(`page load ${i + 1} ended at ${page.url()}`);
    }
    await context.close();
    return times;
  } finally {
    await browser.close();
  }
}

async function scratchDatabase(serverUrl: string) {
  const name = `resort_bench_page_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runAlertPageBench(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      requests: { type: 'string', default: '40' },
      'other-alerts': { type: 'string', default: '20' },
      'page-loads': { type: 'string', default: '5' },
    },
  });
  const pageLoads = Number(values['page-loads']);
  if (!Number.isInteger(pageLoads) || pageLoads < 0)
    throw new Error('--page-loads must be a whole number ≥ 0.');
  if (pageLoads > 0 && !existsSync(path.join(CLIENT_DIST, 'index.html')))
    throw new Error(
      `No client build at ${CLIENT_DIST}: run \`npm run build\` first (or pass --page-loads 0 for the REST figures only).`,
    );
  if (pageLoads > 0 && !existsSync(CHROMIUM_PATH))
    throw new Error(`No Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH).`);
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set BENCH_DATABASE_URL or DATABASE_URL to a PostgreSQL server.');
  const database = await scratchDatabase(serverUrl);
  const handle = createDatabase(database.url, { max: 5 });
  try {
    await migrateToLatest(handle.db);
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      SERVE_CLIENT: pageLoads > 0 ? 'true' : 'false',
      CLIENT_DIST,
      JWT_SECRET: randomBytes(32).toString('hex'),
    });
    console.log(
      `settings: --requests ${values.requests} --other-alerts ${values['other-alerts']} --page-loads ${pageLoads}` +
        (pageLoads > 0
          ? `; SPA ${path.relative(process.cwd(), CLIENT_DIST) || CLIENT_DIST} served by the app (NODE_ENV production), ` +
            `Chromium ${CHROMIUM_PATH} headless ${VIEWPORT.width}×${VIEWPORT.height}, one context signed in through the form, ` +
            `cache cleared before load 1 (cold), loads 2..${pageLoads} warm; no engine running`
          : ''),
    );
    const services = await createServices({ config, db: handle.db, boss: null, log: createLogger('silent') });
    const app = await buildApp(services, { clientDist: pageLoads > 0 ? CLIENT_DIST : undefined });
    // The browser needs a port; the REST figures still go through inject, as before.
    const baseUrl = pageLoads > 0 ? await app.listen({ port: 0, host: '127.0.0.1' }) : null;
    if (!baseUrl) await app.ready();

    const email = `bench.${randomBytes(4).toString('hex')}@example.com`;
    const password = 'BenchPlanner9x';
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Bench Planner', email, password },
    });
    const { tokens, user } = registered.json<{
      data: { tokens: { accessToken: string }; user: { id: string } };
    }>().data;

    const seed = new pg.Client({ connectionString: database.url });
    await seed.connect();
    const started = performance.now();
    const { rows: templates } = await seed.query<{ id: string }>(
      `INSERT INTO templates (name, resort_code, target_url, method, default_headers, default_query, editable_fields)
       VALUES ('Bench resort', 'BR', 'http://127.0.0.1:9/availability', 'GET', '{}',
               '{"checkIn":"2027-01-02","checkOut":"2027-01-06"}', '[]') RETURNING id`,
    );
    const watch = JSON.stringify({
      all: [{ path: 'rooms[*].price', operator: 'lte', value: 400 }],
      any: [],
      notifyOn: 'everyMatch',
      notifyOnResolved: false,
      debounceSeconds: 0,
    });
    const others = Number(values['other-alerts']);
    const { rows: alerts } = await seed.query<{ id: string }>(
      `INSERT INTO alerts (user_id, template_id, title, custom_headers, custom_query, overrides,
                                  watch_config, polling_interval_seconds, status, last_run_at, next_due_at)
       SELECT $1, $2, 'Bench alert ' || g, '{}', '{}', '{}', $3, 5, 'FIRING', now(), now() + interval '5 seconds'
       FROM generate_series(0, $4::int) g RETURNING id`,
      [user.id, templates[0]!.id, watch, others],
    );
    const ids = alerts.map((a) => a.id);
    const target = ids[0]!;
    // 48 h of 5 s polls for every alert: the page's alert and its neighbours in the same table, in
    // blocks as the engine writes them.
    await seed.query(
      `INSERT INTO poll_blocks (alert_id, first_at, last_at, polls)
       SELECT a.id, min(t), max(t), array_agg(ROW(nextval('poll_record_ids'), NULL, t, t, t + interval '40 ms', 3, 40,
              CASE WHEN i % 97 = 0 THEN 503 ELSE 200 END, i % 97 <> 0,
              CASE WHEN i % 97 = 0 THEN NULL ELSE (i / 60) % 5 = 0 END,
              (i / 60) % 5 = 0 AND i % 60 = 0,
              CASE WHEN i % 97 = 0 THEN 'Upstream answered 503.' END,
              NULL, 180 + (i * 7919) % 420, false, NULL, t)::poll_record ORDER BY i)
       FROM unnest($1::uuid[]) a(id),
            generate_series(0, ${RUNS - 1}) i,
            LATERAL (SELECT now() - interval '48 hours' + i * interval '5 seconds') s(t)
       GROUP BY a.id, i / ${POLL_BLOCK_SIZE}`,
      [ids],
    );
    const { rows: services_ } = await seed.query<{ id: string }>(
      `INSERT INTO notification_services (user_id, type, label, config, signing_secret)
       VALUES ($1, 'WEBHOOK', 'Bench hook', '{"url":"https://example.com/hook"}', 'secret') RETURNING id`,
      [user.id],
    );
    await seed.query(
      `WITH n AS (
         INSERT INTO notifications (user_id, alert_id, event_key, kind, message, metadata, created_at)
         SELECT $1, $2, 'bench:' || g, 'MATCH', 'Alert "Bench alert 0" matched: Lagoon View: 2 rooms available at $' || (180 + g % 220),
                '{}', now() - g * interval '86 seconds'
         FROM generate_series(1, 2000) g RETURNING id)
       INSERT INTO notification_deliveries (notification_id, notification_service_id, user_id, status, attempts)
       SELECT n.id, $3, $1, 'SUCCESS', 1 FROM n`,
      [user.id, target, services_[0]!.id],
    );
    const answer = {
      rooms: Array.from({ length: 40 }, (_, i) => ({
        code: `R${i}`,
        name: `Room ${i}`,
        available: i % 3 === 0,
        remaining: i % 4,
        price: 180 + i * 11,
      })),
    };
    await seed.query(
      `UPDATE alerts SET answer = $2, answer_bytes = $3, answer_status_code = 200, answer_received_at = now()
       WHERE id = $1`,
      [target, JSON.stringify(answer), JSON.stringify(answer).length],
    );
    // What autovacuum does on a live table: the visibility map lets the timeline read the index only.
    await seed.query('VACUUM ANALYZE poll_blocks');
    await seed.query('ANALYZE');
    const { rows: count } = await seed.query<{ n: number }>('SELECT count(*)::int AS n FROM poll_runs');
    console.log(
      `seeded ${count[0]!.n} poll runs (${RUNS} for the page's alert, ${others} other alerts alike), ` +
        `2000 notifications, in ${Math.round(performance.now() - started)} ms`,
    );

    // The app's own bucket for a 48 h window of 5 s polls.
    const bucket = bucketSecondsFor(48 * 3600, 5);
    for (const [label, statement] of [
      [
        `timeline (bars of ${bucket} s)`,
        `SELECT to_timestamp(floor(extract(epoch FROM created_at) / ${bucket}) * ${bucket}) AS at,
                count(*) FILTER (WHERE ok AND matched), count(*) FILTER (WHERE ok AND NOT coalesce(matched, false)),
                count(*) FILTER (WHERE NOT ok), min(watched_value), max(watched_value)
         FROM poll_runs WHERE alert_id = $1 AND created_at >= now() - interval '48 hours'
           AND block_last_at >= now() - interval '48 hours' GROUP BY 1 ORDER BY 1`,
      ],
      [
        'poll log',
        `SELECT p.* FROM poll_runs p LEFT JOIN proxies x ON x.id = p.proxy_id
         WHERE p.alert_id = $1 AND p.block_last_at >= coalesce((SELECT last_at FROM poll_blocks
           WHERE alert_id = $1 ORDER BY last_at DESC OFFSET 49 LIMIT 1), '-infinity')
         ORDER BY p.created_at DESC, p.id DESC LIMIT 50`,
      ],
    ] as const) {
      const { rows } = await seed.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement}`, [
        target,
      ]);
      console.log(`\n${label}:\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);
    }
    await seed.end();

    const n = Number(values.requests);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < n + 3; i++) {
      const t0 = performance.now();
      const res = await app.inject({
        method: 'GET',
        url: `/api/registrations/${target}/insight`,
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200) throw new Error(`insight answered ${res.statusCode}: ${res.body}`);
      bytes = res.body.length;
      // The first few warm the caches and the JIT, as a running server's would be.
      if (i >= 3) times.push(ms);
    }
    times.sort((a, b) => a - b);
    const fmt = (v: number) => `${v.toFixed(1)} ms`;
    console.log(
      `\nGET /api/registrations/{id}/insight ×${n}: p50 ${fmt(percentile(times, 50))}, ` +
        `p95 ${fmt(percentile(times, 95))}, max ${fmt(times.at(-1)!)}; answer ${(bytes / 1024).toFixed(1)} KB`,
    );

    let page: { first: number; warm: number[] } | null = null;
    if (baseUrl) {
      // The instance's first account is its super_admin, whose page reads through the admin route;
      // the owner signs in as the plain user an alert's owner is (as the e2e journey's planner).
      const roles = new pg.Client({ connectionString: database.url });
      await roles.connect();
      await roles.query(`UPDATE users SET roles = '{user}' WHERE id = $1`, [user.id]);
      await roles.end();
      const loads = await timePageLoads(baseUrl, target, { email, password }, pageLoads);
      page = {
        first: loads[0]!.visible,
        warm: loads
          .slice(1)
          .map((l) => l.visible)
          .sort((a, b) => a - b),
      };
      console.log(
        `\n/alerts/{id} in Chromium ×${pageLoads}, navigation start → timeline chart and rule explanation visible: ` +
          loads.map((l) => `${Math.round(l.visible)}`).join(', ') +
          ' ms\n  (its insight answer had arrived at: ' +
          loads.map((l) => (l.data === null ? '?' : `${Math.round(l.data)}`)).join(', ') +
          ' ms)',
      );
    }
    const round = (v: number) => Math.round(v * 10) / 10;
    const warm = page && page.warm.length > 0 ? page.warm : null;
    console.log('\n| Figure | Value |\n| --- | --- |');
    console.log(
      `| Insight answer, ${n} sequential requests after 3 warm-up | p50 ${fmt(percentile(times, 50))}, ` +
        `p95 ${fmt(percentile(times, 95))}, max ${fmt(times.at(-1)!)} |`,
    );
    console.log(`| Answer size | ${(bytes / 1024).toFixed(1)} KB |`);
    if (page) {
      console.log(`| Page, first load (cold cache) | ${fmt(page.first)} |`);
      console.log(
        warm
          ? `| Page, warm loads ×${warm.length} | p50 ${fmt(percentile(warm, 50))}, max ${fmt(warm.at(-1)!)} |`
          : '| Page, warm loads | none (--page-loads 1) |',
      );
    }
    console.log(
      JSON.stringify({
        bench: 'alert-page',
        settings: { requests: n, otherAlerts: others, pageLoads, runs: RUNS, viewport: VIEWPORT },
        insightMs: {
          p50: round(percentile(times, 50)),
          p95: round(percentile(times, 95)),
          max: round(times.at(-1)!),
        },
        answerBytes: bytes,
        pageMs: page
          ? {
              first: round(page.first),
              warm: warm
                ? { n: warm.length, p50: round(percentile(warm, 50)), max: round(warm.at(-1)!) }
                : null,
            }
          : null,
      }),
    );
    await app.close();
    await services.live.close();
    await services.outbound.close();
  } finally {
    await handle.destroy();
    await database.drop();
  }
}

if (import.meta.main) await runAlertPageBench(process.argv.slice(2));
