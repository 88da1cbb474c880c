import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineFromServices } from '../../src/engine/start-engine.ts';
import { prunePollRuns } from '../../src/modules/alerts/alert-polling.repo.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  alertRow,
  createAlerts,
  createTemplate,
  dbNow,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  type Upstream,
  waitFor,
} from './engine-fixtures.ts';

/** Start-up spreading, graceful stop, and poll-run retention. */
let world: EngineApp;
let t: TestApp;
let upstream: Upstream;
let planner: { userId: string; serviceId: string };

// Each test starts and stops an engine of its own.
beforeAll(async () => {
  world = await startEngineApp();
  ({ t, upstream, planner } = world);
});

afterAll(() => world?.close());

describe('engine lifecycle', { timeout: 60_000 }, () => {
  it('stopping finishes the poll in flight, writes it back and hands every claim back', async () => {
    upstream.set('/slow-stop', { body: rooms(false), delayMs: 1500 });
    const templateId = await createTemplate(t.db, `${upstream.url}/slow-stop`);
    const [id] = await createAlerts(t.db, planner, templateId, [{}]);
    const engine = createEngineFromServices(t.services);
    await engine.start();
    await waitFor(() => upstream.hits('/slow-stop') >= 1, { what: 'the poll to be in flight' });
    expect(await t.db.selectFrom('engine_workers').select('id').execute()).toEqual([{ id: engine.workerId }]);

    await engine.stop();
    const runs = await pollRuns(t.db, id!);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ ok: true, matched: false, worker_id: engine.workerId });
    const row = await alertRow(t.db, id!);
    expect(row).toMatchObject({ claimed_by: null, claim_token: null, claimed_until: null });
    expect(row.next_due_at!.getTime()).toBeGreaterThan(runs[0]!.due_at.getTime());
    expect(await t.db.selectFrom('engine_workers').select('id').execute()).toEqual([]);
  });

  it('spreads a bulk import without due times over one interval by phase', async () => {
    upstream.set('/bulk', { body: rooms(false) });
    const templateId = await createTemplate(t.db, `${upstream.url}/bulk`);
    const ids = await createAlerts(
      t.db,
      planner,
      templateId,
      Array.from({ length: 300 }, (_, i) => ({ query: { ref: i }, interval: 60 })),
    );
    // Rows written without a due time (a SQL import): more than ENGINE_PROMPT_FIRST_POLLS at once.
    await t.db.updateTable('alerts').set({ next_due_at: null }).where('id', 'in', ids).execute();
    const before = (await dbNow(t.db)).getTime();
    const engine = createEngineFromServices(t.services);
    await engine.start();
    try {
      const rows = await waitFor(async () => {
        const due = await t.db.selectFrom('alerts').select('next_due_at').where('id', 'in', ids).execute();
        return due.every((r) => r.next_due_at !== null) ? due : null;
      });
      // Every row has its due time now, so the spreading happened between `before` and `after`
      // (how long the engine took to start depends on the machine's load, not on the rule).
      const after = (await dbNow(t.db)).getTime();
      // An alert polled meanwhile has moved on: its first due time is its first poll's.
      const first = await Promise.all(
        ids.map(async (id, i) => (await pollRuns(t.db, id))[0]?.due_at ?? rows[i]!.next_due_at!),
      );
      const offsets = first.map((d) => d.getTime() - before);
      // Within one interval of the moment they were spread, and never before it.
      expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...offsets)).toBeLessThanOrEqual(after - before + 61_000);
      expect(Math.max(...offsets) - Math.min(...offsets)).toBeLessThanOrEqual(60_000);
      // Spread by phase, not bunched: every 10-second slice of the minute's grid holds some of them.
      const slices = new Set(first.map((d) => Math.floor((d.getTime() % 60_000) / 10_000)));
      expect(slices.size).toBe(6);
    } finally {
      await engine.stop();
    }
  });

  it('prunes poll runs older than the retention and keeps the rest', async () => {
    const templateId = await createTemplate(t.db, `${upstream.url}/prune`);
    const [id] = await createAlerts(t.db, planner, templateId, [{}]);
    const run = (hoursAgo: number) => ({
      alert_id: id!,
      due_at: sql<Date>`now() - make_interval(hours => ${hoursAgo})`,
      started_at: sql<Date>`now() - make_interval(hours => ${hoursAgo})`,
      finished_at: sql<Date>`now() - make_interval(hours => ${hoursAgo})`,
      lateness_ms: 3,
      duration_ms: 12,
      ok: true,
      created_at: sql<Date>`now() - make_interval(hours => ${hoursAgo})`,
    });
    await t.db
      .insertInto('poll_runs')
      .values([run(72), run(50), run(47), run(1)])
      .execute();
    expect(await prunePollRuns(t.db, 48, 1)).toBe(2);
    const left = await pollRuns(t.db, id!);
    expect(left).toHaveLength(2);
  });
});
