import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { EnginePartDeps } from './engine-deps.ts';

/**
 * How often the worker looks for its reservations long overdue (a backstop). Each look walks the due
 * index over its window, past the versions the write-backs left there: it costs by the second walked.
 */
const OVERDUE_READ_MS = 30_000;
/** A reservation this long overdue and not being polled was missed: it is polled now. */
const OVERDUE_SECONDS = 10;
/** How far back from the reservations read each look reaches: the time since the last look, and 5 s more. */
const OVERDUE_WINDOW_SECONDS = OVERDUE_READ_MS / 1000 + OVERDUE_SECONDS + 5;
const FIRST = { dueAt: new Date(0), id: '00000000-0000-0000-0000-000000000000' };
const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/**
 * This worker's reservations (docs/decisions.md, "Two rows per poll"): a write-back keeps the claim
 * of most alerts for their next due time, so polling them again needs a read, not a claim statement.
 * Each read continues where the previous one stopped (due time, id), so a reservation is read once.
 * A reservation its owner made due sooner (an edit, a restart, Check now) is handed back to the pool
 * by the database (migration 0025) and claimed like any due alert; every OVERDUE_READ_MS the
 * reservations long overdue are read too, a backstop.
 */
export function createReservations(deps: EnginePartDeps) {
  const { alerts, workerId, pending } = deps;
  let after = FIRST;
  let overdueReadAt = Date.now();

  async function readOverdue(): Promise<ClaimedAlert[]> {
    const started = Date.now();
    overdueReadAt = started;
    const overdue = await alerts.readOverdueReservations({
      workerId,
      before: after.dueAt,
      overdueSeconds: OVERDUE_SECONDS,
      windowSeconds: OVERDUE_WINDOW_SECONDS,
    });
    // A row settled since the read began may show the reservation of the poll just written back.
    const fresh = overdue.filter((a) => !pending.has(a.id) && !pending.settledSince(a.id, started));
    pending.forgetSettledBefore(started);
    return fresh;
  }

  return {
    /**
     * This worker's reservations due before `dueBefore`, up to `limit` in due order, and the long
     * overdue ones; answers the database's clock with them.
     */
    async take(limit: number, dueBefore: Date): Promise<{ alerts: ClaimedAlert[]; dbNow: Date | null }> {
      const overdue = Date.now() - overdueReadAt >= OVERDUE_READ_MS ? await readOverdue() : [];
      const read = await alerts.readReserved({ workerId, after, dueBefore, limit });
      const last = read.alerts.at(-1);
      after =
        read.alerts.length === limit && last
          ? { dueAt: last.next_due_at, id: last.id }
          : { dueAt: dueBefore, id: LAST_ID };
      const due = read.alerts.filter((a) => !pending.has(a.id));
      return { alerts: [...overdue, ...due], dbNow: read.alerts.length > 0 ? read.dbNow : null };
    },
  };
}

export type Reservations = ReturnType<typeof createReservations>;
