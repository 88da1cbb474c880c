import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertRow,
  createAlerts,
  createTemplate,
  type EngineApp,
  pollRuns,
  rooms,
  startEngineApp,
  waitFor,
} from './engine-fixtures.ts';

/**
 * Reservations (docs/decisions.md, "Two rows per poll"): a write-back keeps the claim of its alert for
 * the next due time, so the next poll costs its worker a read, not a claim; an owner moving the due
 * time (an edit, Check now) still has the alert polled at once.
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

/** The transaction that last wrote the alert row, and the one that wrote its newest poll run. */
async function writers(id: string) {
  const { rows } = await sql<{ alert: string; run: string }>`
    SELECT (SELECT xmin::text FROM alerts WHERE id = ${id}) AS alert,
           (SELECT xmin::text FROM poll_runs WHERE alert_id = ${id} ORDER BY created_at DESC LIMIT 1) AS run`.execute(
    t.db,
  );
  return rows[0]!;
}

describe('engine: reservations', { timeout: 120_000 }, () => {
  it('polls a reserved alert again with no write to its row before the write-back', async () => {
    app.upstream.set('/reserved', { body: rooms(false), delayMs: 1500 });
    const [id] = await createAlerts(
      t.db,
      app.planner,
      await createTemplate(t.db, `${app.upstream.url}/reserved`),
      [{ interval: 10 }],
    );
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 1, { what: 'the first poll' });
    const reserved = await alertRow(t.db, id!);
    expect(reserved).toMatchObject({ claimed_by: app.engine.workerId, claim_token: null });
    expect(reserved.claimed_until!.getTime() - reserved.next_due_at!.getTime()).toBe(120_000);

    // The second poll in flight: the row is as the first write-back left it (no claim was written).
    await waitFor(() => app.upstream.hits('/reserved') >= 2, {
      what: 'the second poll in flight',
      timeoutMs: 30_000,
    });
    const during = await writers(id!);
    expect(during.alert).toBe(during.run);
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 2, { what: 'the second poll written' });
    const after = await writers(id!);
    expect(after.alert).toBe(after.run);
    expect(after.run).not.toBe(during.run);
    const runs = await pollRuns(t.db, id!);
    expect(runs.every((r) => r.ok && r.worker_id === app.engine.workerId)).toBe(true);
    expect(runs[1]!.lateness_ms).toBeLessThan(1000);
  });

  it('polls a reserved alert at once when its owner asks for a check', async () => {
    app.upstream.set('/checked', { body: rooms(false) });
    const [id] = await createAlerts(
      t.db,
      app.planner,
      await createTemplate(t.db, `${app.upstream.url}/checked`),
      [{ interval: 600 }],
    );
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 1, { what: 'the first poll' });
    const reserved = await alertRow(t.db, id!);
    expect(reserved.claimed_by).toBe(app.engine.workerId);
    expect(reserved.next_due_at!.getTime()).toBeGreaterThan(Date.now() + 60_000);

    const askedAt = Date.now();
    await t.services.alerts.requestCheck({ userId: app.planner.userId, admin: true }, id!);
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 2, {
      what: 'the check polled',
      timeoutMs: 10_000,
    });
    const runs = await pollRuns(t.db, id!);
    expect(runs[1]!.started_at.getTime() - askedAt).toBeLessThan(3000);
    expect((await alertRow(t.db, id!)).claimed_by).toBe(app.engine.workerId);
  });

  it('hands a reservation made due sooner back to the pool in the same update, and keeps one moved later', async () => {
    app.upstream.set('/moved', { body: rooms(false) });
    const [id] = await createAlerts(
      t.db,
      app.planner,
      await createTemplate(t.db, `${app.upstream.url}/moved`),
      [{ interval: 600 }],
    );
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 1, { what: 'the first poll' });
    expect((await alertRow(t.db, id!)).claimed_by).toBe(app.engine.workerId);

    // Later: still this worker's reservation.
    const later = await t.db
      .updateTable('alerts')
      .set({ next_due_at: sql`next_due_at + interval '1 minute'` })
      .where('id', '=', id!)
      .returning(['claimed_by', 'claimed_until'])
      .executeTakeFirstOrThrow();
    expect(later.claimed_by).toBe(app.engine.workerId);
    expect(later.claimed_until).not.toBeNull();

    // Sooner (as an edit or Check now writes it): released, and the engine claims and polls it.
    const sooner = await t.db
      .updateTable('alerts')
      .set({ next_due_at: sql`now()` })
      .where('id', '=', id!)
      .returning(['claimed_by', 'claimed_until', 'claim_token'])
      .executeTakeFirstOrThrow();
    expect(sooner).toEqual({ claimed_by: null, claimed_until: null, claim_token: null });
    await waitFor(async () => (await pollRuns(t.db, id!)).length >= 2, { what: 'the moved alert polled' });
  });
});
