import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockUntoldHealth, untoldHealthStatement } from '../../src/modules/alerts/alert-health.repo.ts';
import { createAlerts, createPlanner, createTemplate } from '../engine/engine-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * The health notifier's look for untold changes runs every few seconds while alerts poll. It reads the
 * few untold rows through alerts_health_untold_idx, not the whole table: with many alerts and none or
 * few untold, a scan of every alert row every five seconds was the database's largest periodic cost.
 */
const ALERTS = 20_000;
let t: TestApp;
let untoldIds: string[];

beforeAll(async () => {
  t = await startTestApp();
  const planner = await createPlanner(t.db, 'http://127.0.0.1:9/unused');
  const template = await createTemplate(t.db, 'http://127.0.0.1:9/rooms');
  const [first] = await createAlerts(t.db, planner, template, [{}]);
  // Copies of the one alert, told of their health (the state of nearly every alert nearly always),
  // their changes spread over a month.
  await sql`INSERT INTO alerts (user_id, template_id, watch_config, polling_interval_seconds, status,
                                health, health_told, health_since)
    SELECT a.user_id, a.template_id, a.watch_config, a.polling_interval_seconds, a.status,
           'healthy', 'healthy', now() - random() * interval '30 days'
    FROM alerts a, generate_series(2, ${ALERTS}) WHERE a.id = ${first!}`.execute(t.db);
  // Three changes waiting to be told, an hour old: ready.
  const { rows } = await sql<{ id: string }>`
    UPDATE alerts SET health = 'failing', health_cause = 'refused', health_since = now() - interval '1 hour'
    WHERE id IN (SELECT id FROM alerts ORDER BY id LIMIT 3) RETURNING id`.execute(t.db);
  untoldIds = rows.map((r) => r.id).sort();
  // What autovacuum's analyze would have gathered by now.
  await sql`ANALYZE alerts`.execute(t.db);
});

afterAll(async () => {
  await t?.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe('untold health changes', () => {
  it(`are read through alerts_health_untold_idx among ${ALERTS} alerts, not by scanning them`, async () => {
    const compiled = untoldHealthStatement(60, 500).compile(t.db);
    const explained = await t.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
    );
    const plan = nodes(explained.rows[0]!['QUERY PLAN'][0].Plan);
    const alertScans = plan.filter((n) => n['Relation Name'] === 'alerts');
    expect(alertScans.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    // An index scan names it; a bitmap scan's index node below the heap scan does.
    expect(plan.map((n) => n['Index Name'])).toContain('alerts_health_untold_idx');
  });

  it('still finds and locks exactly the untold changes', async () => {
    const found = await t.db.transaction().execute((trx) => lockUntoldHealth(trx, 60, 500));
    expect(found.map((r) => r.id).sort()).toEqual(untoldIds);
    expect(found.every((r) => r.health === 'failing' && r.health_told === 'healthy')).toBe(true);
  });
});
