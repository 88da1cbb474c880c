import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertRow,
  createAlerts,
  createTemplate,
  type EngineApp,
  rooms,
  startEngineApp,
  waitFor,
} from '../engine/engine-fixtures.ts';

/**
 * GET /metrics (docs/product.md, "Alert health"): the operator's figures in Prometheus text format,
 * read here with a Prometheus text-format parser, moving as polls fail.
 */
let app: EngineApp;
let t: EngineApp['t'];

beforeAll(async () => {
  app = await startEngineApp({ start: true });
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
