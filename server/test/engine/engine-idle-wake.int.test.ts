import { sql } from 'kysely';
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
 * An idle engine sleeps until the next due time (docs/decisions.md, "An idle engine sleeps until the
 * next due time"): it wakes at once when an alert becomes due sooner (created, Check now, resumed:
 * migration 0023's NOTIFY), and a wake-up lost on the way is made good within ENGINE_IDLE_POLL_MS.
 */

/** Makes an alert due now behind the triggers' back: the NOTIFY an engine would wake on is lost. */
async function dueNowSilently(app: EngineApp, alertId: string): Promise<void> {
  await app.t.db.connection().execute(async (db) => {
    await sql`SET session_replication_role = replica`.execute(db);
    try {
      await db.updateTable('alerts').set({ next_due_at: sql`now()` }).where('id', '=', alertId).execute();
    } finally {
      await sql`RESET session_replication_role`.execute(db);
    }
  });
}

const pollsOf = async (app: EngineApp, id: string) => (await pollRuns(app.t.db, id)).length;

/** An alert polled once, whose next poll is an hour away: the engine then sleeps. */
async function quietAlert(app: EngineApp, path: string): Promise<string> {
  app.upstream.set(path, { body: rooms(false) });
  const templateId = await createTemplate(app.t.db, `${app.upstream.url}${path}`);
  const [id] = await createAlerts(app.t.db, app.planner, templateId, [{ interval: 3600 }]);
  await waitFor(async () => (await pollsOf(app, id!)) === 1, { what: 'the first poll' });
  return id!;
}

describe('engine: asleep with nothing due', { timeout: 120_000 }, () => {
  let app: EngineApp;

  beforeAll(async () => {
    // The safety net far away: only a wake-up can explain a prompt poll.
    app = await startEngineApp({ start: true, env: { ENGINE_IDLE_POLL_MS: '600000' } });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('sleeps: an alert made due without a wake-up waits', async () => {
    const id = await quietAlert(app, '/silent');
    // Its write-back done, the engine goes to sleep (until the alert's next due time, an hour away).
    await waitFor(async () => app.engine.asleep(), { what: 'the engine asleep' });
    await dueNowSilently(app, id);
    // Ticking engines (the build before this one ticked every ENGINE_TICK_MS) would poll it at once.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await pollsOf(app, id)).toBe(1);
  });

  it('wakes at once for an alert created, an alert checked now and an alert resumed', async () => {
    const id = await quietAlert(app, '/woken');

    // Created while the engine sleeps an hour away: its first poll comes at once.
    app.upstream.set('/created', { body: rooms(false) });
    const templateId = await createTemplate(app.t.db, `${app.upstream.url}/created`);
    let startedAt = Date.now();
    const [created] = await createAlerts(app.t.db, app.planner, templateId, [{ interval: 3600 }]);
    await waitFor(async () => (await pollsOf(app, created!)) === 1, {
      what: 'the new alert polled',
      timeoutMs: 5000,
    });
    expect(Date.now() - startedAt).toBeLessThan(5000);

    // Check now: through the alert page's service, as the owner's button does.
    startedAt = Date.now();
    const check = await app.t.services.alerts.requestCheck({ userId: app.planner.userId, admin: true }, id);
    expect(check).toHaveProperty('dueAt');
    await waitFor(async () => (await pollsOf(app, id)) === 2, { what: 'the check', timeoutMs: 5000 });
    expect(Date.now() - startedAt).toBeLessThan(5000);

    // Paused, then resumed: its poll comes at once.
    await app.t.db
      .updateTable('alerts')
      .set({ status: 'INACTIVE', next_due_at: null })
      .where('id', '=', id)
      .execute();
    startedAt = Date.now();
    await app.t.db
      .updateTable('alerts')
      .set({ status: 'ACTIVE', next_due_at: sql`now()` })
      .where('id', '=', id)
      .execute();
    await waitFor(async () => (await pollsOf(app, id)) === 3, { what: 'the resumed poll', timeoutMs: 5000 });
    expect(Date.now() - startedAt).toBeLessThan(5000);
  });
});

describe('engine: a lost wake-up', { timeout: 120_000 }, () => {
  let app: EngineApp;
  const boundMs = 1500;

  beforeAll(async () => {
    app = await startEngineApp({ start: true, env: { ENGINE_IDLE_POLL_MS: String(boundMs) } });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('is made good within ENGINE_IDLE_POLL_MS', async () => {
    const id = await quietAlert(app, '/lost');
    // Asleep (its next due time an hour away) before the wake-up is lost.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const startedAt = Date.now();
    await dueNowSilently(app, id);
    await waitFor(async () => (await pollsOf(app, id)) === 2, {
      what: 'the poll after the safety net',
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    // The bound, the claim's look-ahead and the poll's own round trip.
    expect(Date.now() - startedAt).toBeLessThan(boundMs + 1500);
  });
});
