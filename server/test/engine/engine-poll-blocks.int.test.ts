import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prunePollRuns } from '../../src/modules/alerts/alert-polling.repo.ts';
import { POLL_BLOCK_SIZE } from '../../src/modules/alerts/alert-write-back.repo.ts';
import {
  createAlerts,
  createTemplate,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  waitFor,
} from './engine-fixtures.ts';

/**
 * A poll writes one row: its record goes onto the alert row the write-back updates anyway, and every
 * POLL_BLOCK_SIZE-th poll moves the alert's records into one row of poll_blocks. The view poll_runs
 * shows each poll once, wherever its record is, under the id it was given.
 */
describe('engine: the poll log in blocks', { timeout: 180_000 }, () => {
  let app: EngineApp;

  beforeAll(async () => {
    app = await startEngineApp({ start: true });
  });

  afterAll(async () => {
    await app?.close();
  });

  /** Where an alert's polls are stored, read in one snapshot. */
  async function storage(alertId: string) {
    const { rows } = await sql<{ runs: number; blocks: number[] | null; held: number | null }>`
      SELECT (SELECT count(*)::int FROM poll_runs WHERE alert_id = ${alertId}) AS runs,
             (SELECT array_agg(cardinality(polls) ORDER BY id) FROM poll_blocks WHERE alert_id = ${alertId}) AS blocks,
             (SELECT cardinality(recent_polls) FROM alerts WHERE id = ${alertId}) AS held`.execute(app.t.db);
    return rows[0]!;
  }

  it('stores a poll once, on its alert row or in a block of its alert’s polls, under one id', async () => {
    app.upstream.set('/blocks', { body: rooms(false) });
    const [id] = await createAlerts(
      app.t.db,
      app.planner,
      await createTemplate(app.t.db, `${app.upstream.url}/blocks`),
      [{ interval: 5 }],
    );
    await waitFor(async () => (await storage(id!)).held === 3, {
      what: 'three polls held',
      timeoutMs: 60_000,
    });
    // Each run but what says which row holds it, which changes when the record moves to a block.
    const polls = async () =>
      (await pollRuns(app.t.db, id!)).map(
        ({ xmin: _holder, block_first_at: _first, block_last_at: _last, ...run }) => run,
      );
    const early = await polls();

    const total = POLL_BLOCK_SIZE + 1;
    await waitFor(async () => (await storage(id!)).runs >= total, {
      what: `${total} polls`,
      timeoutMs: 90_000,
    });
    const stored = await storage(id!);
    expect(stored.blocks!.length).toBeGreaterThanOrEqual(1);
    expect(stored.blocks!.every((n) => n === POLL_BLOCK_SIZE)).toBe(true);
    expect(stored.held ?? 0).toBeLessThan(POLL_BLOCK_SIZE);
    expect(stored.runs).toBe(stored.blocks!.length * POLL_BLOCK_SIZE + (stored.held ?? 0));

    const runs = await polls();
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
    for (let i = 1; i < runs.length; i++)
      expect(runs[i]!.due_at.getTime()).toBeGreaterThan(runs[i - 1]!.due_at.getTime());
    // The polls held on the alert row keep their ids and fields in the block they moved to.
    expect(runs.slice(0, early.length)).toEqual(early);
    expect(runs.every((r) => r.ok && r.matched === false && r.worker_id === app.engine.workerId)).toBe(true);
  });

  it('prunes the polls an alert row still holds once the newest is past the retention', async () => {
    app.upstream.set('/held', { body: rooms(false) });
    const [held, recent] = await createAlerts(
      app.t.db,
      app.planner,
      await createTemplate(app.t.db, `${app.upstream.url}/held`),
      [{ interval: 3600 }, { interval: 3600 }],
    );
    await waitFor(async () => (await storage(held!)).held === 1 && (await storage(recent!)).held === 1, {
      what: 'the first polls held',
    });
    await sql`UPDATE alerts SET recent_polls = (
        SELECT array_agg(ROW(p.id, p.proxy_id, p.due_at, p.started_at, p.finished_at, p.lateness_ms,
          p.duration_ms, p.status_code, p.ok, p.matched, p.notified, p.error, p.worker_id, p.watched_value,
          p.deferred, p.poll_class, p.created_at - interval '3 days')::poll_record)
        FROM unnest(recent_polls) p)
      WHERE id = ${held}`.execute(app.t.db);

    expect(await prunePollRuns(app.t.db, 48)).toBeGreaterThanOrEqual(1);
    expect(await pollRuns(app.t.db, held!)).toEqual([]);
    expect(await pollRuns(app.t.db, recent!)).toHaveLength(1);
  });
});
