import { sql } from 'kysely';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertRow,
  createAlerts,
  createPlanner,
  createTemplate,
  type EngineApp,
  rooms,
  startEngineApp,
  waitFor,
} from '../engine/engine-fixtures.ts';

/**
 * The operator's and the admins' figures (docs/product.md, "Alert health"): GET /metrics in
 * Prometheus text format, read here with a Prometheus text-format parser, moving as polls fail; and
 * each template's health in GET /api/health, with admins told once when most of its alerts fail.
 */
let app: EngineApp;
let t: EngineApp['t'];

beforeAll(async () => {
  app = await startEngineApp({
    start: true,
    deliveries: true,
    env: { HEALTH_NOTICE_DELAY_SECONDS: '1', HEALTH_NOTICE_TICK_MS: '250' },
  });
  ({ t } = app);
});

afterAll(async () => {
  await app?.close();
});

async function scrape() {
  const res = await t.request({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusTextFormat(res.body);
}

function family(families: ParsedFamily[], name: string): ParsedFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric ${name} in ${families.map((f) => f.name).join(', ')}`);
  return found;
}

/** The sample's value with these labels (0 when absent). */
function sampleValue(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number {
  const sample = family(families, name).metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
  );
  return sample ? Number(sample.value ?? sample.count) : 0;
}

describe('GET /metrics', { timeout: 120_000 }, () => {
  it('parses as Prometheus text, and its figures move when polls fail', async () => {
    const before = await scrape();
    const failedBefore = sampleValue(before, 'resort_polls_total', { class: 'upstream_error' });
    expect(sampleValue(before, 'resort_alerts', { health: 'failing' })).toBe(0);

    app.upstream.set('/broken', { status: 503, body: { error: 'down' } });
    app.upstream.set('/fine', { body: rooms(false) });
    const broken = await createTemplate(t.db, `${app.upstream.url}/broken`, 'Broken Bay rooms');
    const [id] = await createAlerts(t.db, app.planner, broken, [{}]);
    await createAlerts(t.db, app.planner, await createTemplate(t.db, `${app.upstream.url}/fine`), [{}]);
    await waitFor(async () => (await alertRow(t.db, id!)).health === 'failing', {
      what: 'the alert failing',
      timeoutMs: 60_000,
    });

    const after = await waitFor(
      async () => {
        const families = await scrape();
        return sampleValue(families, 'resort_alerts', { health: 'failing' }) >= 1 ? families : null;
      },
      { what: 'the failing alert in the figures', timeoutMs: 20_000 },
    );
    for (const [name, type] of [
      ['resort_polls_total', 'COUNTER'],
      ['resort_poll_lateness_seconds', 'HISTOGRAM'],
      ['resort_alerts', 'GAUGE'],
      ['resort_template_alerts', 'GAUGE'],
      ['resort_delivery_queue', 'GAUGE'],
      ['resort_delivery_oldest_pending_seconds', 'GAUGE'],
    ] as const) {
      expect(family(after, name).type).toBe(type);
    }
    expect(sampleValue(after, 'resort_polls_total', { class: 'upstream_error' })).toBeGreaterThanOrEqual(
      failedBefore + 3,
    );
    expect(sampleValue(after, 'resort_polls_total', { class: 'not_matched' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, 'resort_poll_lateness_seconds')).toBeGreaterThanOrEqual(4);
    expect(
      sampleValue(after, 'resort_template_alerts', { template: 'Broken Bay rooms', health: 'failing' }),
    ).toBe(1);
    expect(sampleValue(after, 'resort_delivery_queue', { state: 'pending' })).toBeGreaterThanOrEqual(0);
  });
});

interface TemplateFigures {
  templateName: string;
  polled: number;
  failing: number;
  failingShare: number;
  cause: string | null;
  since: string | null;
}

async function templatesInHealth(): Promise<TemplateFigures[]> {
  const res = await t.request({ method: 'GET', url: '/api/health' });
  return res.json<{ data: { templates?: TemplateFigures[] } }>().data.templates ?? [];
}

describe('template health', { timeout: 120_000 }, () => {
  it('shows the share failing with its cause, and tells admins once when most alerts of a template fail', async () => {
    const admin = await createPlanner(t.db, app.receiver!.url);
    await t.db
      .updateTable('users')
      .set({ roles: ['user', 'admin'] })
      .where('id', '=', admin.userId)
      .execute();
    app.upstream.set('/walled', { body: rooms(false) });
    const template = await createTemplate(t.db, `${app.upstream.url}/walled`, 'Walled Garden rooms');
    await createAlerts(
      t.db,
      app.planner,
      template,
      Array.from({ length: 4 }, (_, i) => ({ query: { n: i } })),
    );
    await waitFor(
      async () =>
        (await templatesInHealth()).find((r) => r.templateName === 'Walled Garden rooms')?.polled === 4,
      { what: 'the template in the health report' },
    );

    app.upstream.set('/walled', {
      status: 403,
      headers: { 'content-type': 'text/html' },
      body: '<html>blocked</html>',
    });
    const figures = await waitFor(
      async () => {
        const row = (await templatesInHealth()).find((r) => r.templateName === 'Walled Garden rooms');
        return row && row.failing === 4 ? row : null;
      },
      { what: 'the template failing', timeoutMs: 60_000 },
    );
    expect(figures).toMatchObject({ failingShare: 1, cause: 'refused' });
    expect(figures.since).not.toBeNull();

    const notices = await waitFor(
      async () => {
        const rows = await t.db
          .selectFrom('notifications')
          .selectAll()
          .where('user_id', '=', admin.userId)
          .where('kind', '=', 'TEMPLATE_FAILING')
          .execute();
        return rows.length > 0 ? rows : null;
      },
      { what: "the admin's notice", timeoutMs: 30_000 },
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain('Walled Garden rooms');
    // Told as soon as most of them fail: at three of four, or at four when they fail together.
    expect(notices[0]!.message).toMatch(/[34] of its 4 alerts/);
    await waitFor(
      () => app.receiver!.received.some((r) => String(r.body.message).includes('Walled Garden rooms')),
      { what: "the admin's webhook" },
    );
    // Still failing: no second notice.
    const told = await sql<{
      health_told: boolean;
    }>`SELECT health_told FROM templates WHERE id = ${template}`.execute(t.db);
    expect(told.rows[0]!.health_told).toBe(true);

    app.upstream.set('/walled', { body: rooms(false) });
    await waitFor(
      async () =>
        (await templatesInHealth()).find((r) => r.templateName === 'Walled Garden rooms')?.failing === 0,
      { what: 'the template working again', timeoutMs: 60_000 },
    );
    await waitFor(
      async () =>
        (
          await sql<{
            health_told: boolean;
          }>`SELECT health_told FROM templates WHERE id = ${template}`.execute(t.db)
        ).rows[0]!.health_told === false,
      { what: 'the template no longer told failing', timeoutMs: 30_000 },
    );
    const again = await t.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', admin.userId)
      .where('kind', '=', 'TEMPLATE_FAILING')
      .execute();
    expect(again).toHaveLength(1);
  });
});
