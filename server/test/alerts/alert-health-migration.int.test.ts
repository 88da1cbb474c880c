import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { down, up } from '../../../migrations/0017_alert_health.ts';
import { migrations } from '../../../migrations/index.ts';
import { createAlerts, createPlanner, createTemplate } from '../engine/engine-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/** Migration 0017: alerts already in ERROR were failing and their owners never told; they are now. */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('migration 0017_alert_health', () => {
  it('makes ERROR alerts failing with their cause, untold, and keeps the last success of the others', async () => {
    // Back to before 0017 for what it changes: 0026 made poll_runs a view, and 0017 changes that table.
    const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
    const settled = async (result: Promise<{ error?: unknown }>) => {
      const { error } = await result;
      if (error) throw error;
    };
    await settled(migrator.migrateTo('0025_release_moved_reservations'));
    await down(t.db);
    const planner = await createPlanner(t.db, 'http://127.0.0.1:9/unused');
    const template = await createTemplate(t.db, 'http://127.0.0.1:9/rooms');
    const [blocked, broken, fine] = await createAlerts(t.db, planner, template, [{}, {}, {}]);
    await sql`UPDATE alerts SET status = 'ERROR', last_status_code = 403, last_run_at = now() - interval '1 hour'
      WHERE id = ${blocked}`.execute(t.db);
    await sql`UPDATE alerts SET status = 'ERROR', last_status_code = 502 WHERE id = ${broken}`.execute(t.db);
    await sql`UPDATE alerts SET last_completed_at = now() - interval '1 minute' WHERE id = ${fine}`.execute(
      t.db,
    );

    await up(t.db);
    await settled(migrator.migrateToLatest());

    const rows = await t.db
      .selectFrom('alerts')
      .select(['id', 'health', 'health_cause', 'health_told', 'health_since', 'last_success_at'])
      .where('id', 'in', [blocked!, broken!, fine!])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(blocked!)).toMatchObject({
      health: 'failing',
      health_cause: 'refused',
      health_told: 'healthy',
    });
    expect(byId.get(blocked!)!.health_since).not.toBeNull();
    expect(byId.get(broken!)).toMatchObject({ health: 'failing', health_cause: 'upstream_error' });
    expect(byId.get(fine!)).toMatchObject({ health: 'healthy', health_cause: null });
    expect(byId.get(fine!)!.last_success_at).not.toBeNull();
  });
});
