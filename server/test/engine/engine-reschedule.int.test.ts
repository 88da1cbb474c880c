import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rescheduleClaims } from '../../src/modules/alerts/alert-polling.repo.ts';
import { createAlerts, createTemplate, type EngineApp, startEngineApp } from './engine-fixtures.ts';

/**
 * A claimed alert too late to catch up moves to its next grid point without a poll (schedule.ts
 * catchUp): its claim goes back to the pool, and its new due time is written only while the row
 * still has the due time claimed, to the millisecond; a due time its owner changed since stands.
 */
describe('engine: late claims rescheduled', { timeout: 60_000 }, () => {
  let app: EngineApp;
  const workerId = randomUUID();

  beforeAll(async () => {
    app = await startEngineApp();
  });

  afterAll(async () => {
    await app?.close();
  });

  /** An alert held by a claim of `workerId`, due at `dueAt` (an ISO timestamp, microseconds allowed). */
  async function claimedAlert(dueAt: string) {
    const template = await createTemplate(app.t.db, `${app.upstream.url}/late`);
    const [id] = await createAlerts(app.t.db, app.planner, template, [{ interval: 60 }]);
    const token = randomUUID();
    await sql`UPDATE alerts SET next_due_at = ${dueAt}::timestamptz, claimed_by = ${workerId}::uuid,
                claim_token = ${token}::uuid, claimed_until = now() + interval '1 minute'
              WHERE id = ${id!}`.execute(app.t.db);
    return { id: id!, token };
  }

  async function row(id: string) {
    const { rows } = await sql<{ due: string; claimed_by: string | null; claim_token: string | null }>`
      SELECT to_char(next_due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS due, claimed_by, claim_token
      FROM alerts WHERE id = ${id}`.execute(app.t.db);
    return rows[0]!;
  }

  /** The engine's reschedule of a claim it took for 10:00:00.000, to 12:00. */
  const rescheduleTo12 = (id: string, token: string) =>
    rescheduleClaims(app.t.db, workerId, [
      {
        id,
        token,
        dueAt: new Date('2026-01-01T10:00:00.000Z'),
        nextDueAt: new Date('2026-01-01T12:00:00.000Z'),
      },
    ]);

  it('writes the next due time and releases the claim when the row still has the claimed due time', async () => {
    // The row keeps microseconds; the engine holds the due time as a Date, to the millisecond.
    const { id, token } = await claimedAlert('2026-01-01T10:00:00.000400Z');
    await rescheduleTo12(id, token);
    expect(await row(id)).toEqual({ due: '2026-01-01T12:00:00.000000', claimed_by: null, claim_token: null });
  });

  it('keeps a due time changed since the claim, and still releases the claim', async () => {
    const { id, token } = await claimedAlert('2026-01-01T10:00:00.002Z');
    await rescheduleTo12(id, token);
    expect(await row(id)).toEqual({ due: '2026-01-01T10:00:00.002000', claimed_by: null, claim_token: null });
  });

  it('changes nothing for a claim it no longer holds', async () => {
    const { id } = await claimedAlert('2026-01-01T10:00:00.000Z');
    await rescheduleTo12(id, randomUUID());
    const after = await row(id);
    expect(after.due).toBe('2026-01-01T10:00:00.000000');
    expect(after.claimed_by).toBe(workerId);
  });
});
