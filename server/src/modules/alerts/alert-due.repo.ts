import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { polledStatusesSql } from '../../db/polled-statuses.ts';

/** The channel migration 0023's triggers announce on when an alert becomes due sooner than it was. */
export const ALERTS_DUE_CHANNEL = 'resort_alerts_due';

/**
 * When a worker with nothing claimed next has something to do: now when an alert waits for its first
 * due time or an unclaimed one is due, else the soonest due time of an unclaimed polled alert or of
 * this worker's own reservations (kept claims, no token: it reads them when they come due); null
 * when no alert is polled. Other claims are their workers' to write back (or a reap hands them back,
 * which the trigger announces). Two index probes of `alerts_due_idx`.
 */
export async function readNextDue(
  db: Database,
  workerId: string,
): Promise<{ nextDueAt: Date | null; dbNow: Date }> {
  const { rows } = await sql<{ next_due_at: Date | null; db_now: Date }>`
    SELECT CASE WHEN EXISTS (SELECT 1 FROM alerts WHERE status IN ${polledStatusesSql} AND next_due_at IS NULL)
             THEN now()
             ELSE (SELECT next_due_at FROM alerts
                   WHERE status IN ${polledStatusesSql} AND next_due_at IS NOT NULL
                     AND (claimed_until IS NULL OR claimed_until < now()
                          OR (claimed_by = ${workerId}::uuid AND claim_token IS NULL))
                   ORDER BY next_due_at LIMIT 1)
           END AS next_due_at,
           now() AS db_now`.execute(db);
  const row = rows[0]!;
  return { nextDueAt: row.next_due_at, dbNow: row.db_now };
}
