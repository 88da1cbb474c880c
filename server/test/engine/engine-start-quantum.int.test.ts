import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAlerts,
  createTemplate,
  dbNow,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  waitFor,
} from './engine-fixtures.ts';

/**
 * Polls start on a grid of ENGINE_START_QUANTUM_MS (docs/decisions.md, "Polls start on a quantum"):
 * each at the first grid point at or after its due time, never before it, so alerts due within one
 * quantum share a wake-up of the worker.
 */
const QUANTUM_MS = 1000;

describe('engine: polls start on the quantum after their due time', { timeout: 60_000 }, () => {
  let app: EngineApp;

  beforeAll(async () => {
    // Not started yet: the test sets the due times before the engine reads them.
    app = await startEngineApp({ env: { ENGINE_START_QUANTUM_MS: String(QUANTUM_MS) } });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('starts two alerts due 500 ms apart together, at the grid point after the later one, none early', async () => {
    app.upstream.set('/quantum', { body: rooms(false) });
    const templateId = await createTemplate(app.t.db, `${app.upstream.url}/quantum`);
    const [early, late] = await createAlerts(app.t.db, app.planner, templateId, [
      { interval: 3600 },
      { interval: 3600 },
    ]);
    // Due 100 ms and 600 ms into a whole second two seconds from now (database time).
    const second = Math.ceil(((await dbNow(app.t.db)).getTime() + 2000) / QUANTUM_MS) * QUANTUM_MS;
    const dues = { [early!]: second + 100, [late!]: second + 600 };
    for (const [id, due] of Object.entries(dues)) {
      await app.t.db
        .updateTable('alerts')
        .set({ next_due_at: new Date(due) })
        .where('id', '=', id)
        .execute();
    }
    await app.engine.start();

    const runs = await waitFor(
      async () => {
        const both = await Promise.all([pollRuns(app.t.db, early!), pollRuns(app.t.db, late!)]);
        return both.every((r) => r.length === 1) ? both.map((r) => r[0]!) : null;
      },
      { what: 'one poll of each alert' },
    );
    const gridPoint = second + QUANTUM_MS;
    for (const run of runs) {
      // Due as set; started at the grid point (the worker's estimate of database time: a few ms).
      expect(run.due_at.getTime()).toBe(dues[run.alert_id]);
      expect(run.started_at.getTime()).toBeGreaterThanOrEqual(gridPoint - 20);
      expect(run.lateness_ms).toBeGreaterThanOrEqual(gridPoint - 20 - dues[run.alert_id]!);
    }
  });
});
