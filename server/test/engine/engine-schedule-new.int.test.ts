import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * A busy tick reads reservations and claims; it looks for new alerts (no due time yet) only after a
 * wake-up, which every created, resumed or unscheduled alert announces (migration 0023's NOTIFY), and
 * every ten seconds as a backstop. A new alert is still polled at once.
 */
describe('engine: new alerts are looked for when announced, not on every tick', { timeout: 60_000 }, () => {
  let app: EngineApp;
  const calls = { scheduleNew: 0, claimDue: 0 };

  beforeAll(async () => {
    app = await startEngineApp();
    // Counted on their way to the database (the engine calls the service's methods at each tick).
    const polling = app.t.services.alertPolling;
    const { scheduleNew, claimDue } = polling;
    polling.scheduleNew = (options) => {
      calls.scheduleNew++;
      return scheduleNew(options);
    };
    polling.claimDue = (options) => {
      calls.claimDue++;
      return claimDue(options);
    };
    await app.engine.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  it('ticks without looking for new alerts, and polls one created at once', async () => {
    app.upstream.set('/busy', { body: rooms(false) });
    const busyTemplate = await createTemplate(app.t.db, `${app.upstream.url}/busy`);
    // A hundred alerts every 5 s: a poll comes due every 50 ms or so, so the engine stays busy,
    // ticking every ENGINE_TICK_MS (50 ms in tests).
    const busy = await createAlerts(app.t.db, app.planner, busyTemplate, Array(100).fill({ interval: 5 }));
    await waitFor(async () => (await pollRuns(app.t.db, busy[0]!)).length >= 1, {
      what: 'the busy alerts polled',
    });

    const before = { ...calls, at: Date.now() };
    await waitFor(async () => calls.claimDue - before.claimDue >= 20, { what: 'twenty ticks' });
    const looks = calls.scheduleNew - before.scheduleNew;
    // The old engine looked on every tick. Now: at most the backstop's looks in the time that passed,
    // and one wake-up (a write-back may hand a claim back with its due time kept, which announces it).
    const backstops = Math.floor((Date.now() - before.at) / 10_000) + 1;
    expect(looks).toBeLessThanOrEqual(backstops + 1);

    // Created while the engine is busy: announced, looked for on the next tick, polled at once.
    app.upstream.set('/new', { body: rooms(false) });
    const newTemplate = await createTemplate(app.t.db, `${app.upstream.url}/new`, 'Harbor rooms');
    const looksBefore = calls.scheduleNew;
    const [created] = await createAlerts(app.t.db, app.planner, newTemplate, [{ interval: 3600 }]);
    await waitFor(async () => (await pollRuns(app.t.db, created!)).length === 1, {
      what: 'the new alert polled',
      timeoutMs: 5000,
    });
    expect(calls.scheduleNew).toBeGreaterThan(looksBefore);
  });
});
