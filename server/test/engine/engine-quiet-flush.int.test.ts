import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAlerts,
  createTemplate,
  type EngineApp,
  notificationsOf,
  pollRuns,
  rooms,
  startEngineApp,
  waitFor,
} from './engine-fixtures.ts';

/**
 * Outcomes with nothing to tell wait up to ENGINE_QUIET_FLUSH_MS to be written back, in fewer and
 * larger write-backs; a notification waits ENGINE_FLUSH_MS at most, and takes the quiet outcomes
 * buffered before it along.
 */
describe('engine: quiet outcomes wait, a notification does not', { timeout: 60_000 }, () => {
  let app: EngineApp;

  beforeAll(async () => {
    // A quiet outcome alone would wait ten minutes: only a notification explains a write-back.
    app = await startEngineApp({
      start: true,
      env: { ENGINE_FLUSH_MS: '50', ENGINE_QUIET_FLUSH_MS: '600000' },
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('writes a quiet outcome with the next notification, at once', async () => {
    app.upstream.set('/quiet', { body: rooms(false) });
    app.upstream.set('/open', { body: rooms(true) });
    const quietTemplate = await createTemplate(app.t.db, `${app.upstream.url}/quiet`);
    const openTemplate = await createTemplate(app.t.db, `${app.upstream.url}/open`, 'Harbor rooms');

    const [quiet] = await createAlerts(app.t.db, app.planner, quietTemplate, [{ interval: 3600 }]);
    await waitFor(() => app.engine.figures().writer.buffered === 1, { what: 'the quiet outcome buffered' });
    expect(app.upstream.hits('/quiet')).toBe(1);
    expect(await pollRuns(app.t.db, quiet!)).toHaveLength(0);

    const [open] = await createAlerts(app.t.db, app.planner, openTemplate, [{ interval: 3600 }]);
    await waitFor(async () => (await notificationsOf(app.t.db, open!)).length === 1, {
      what: 'the match notified',
    });
    await waitFor(async () => (await pollRuns(app.t.db, open!)).length === 1, {
      what: "the match's poll run",
    });
    const runs = await pollRuns(app.t.db, quiet!);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ ok: true, matched: false });
    expect(app.engine.figures().writer.buffered).toBe(0);
  });
});
