import type { Database } from '../../db/database.ts';
import { readNextDue } from './alert-due.repo.ts';
import { listenForDueAlerts } from './alert-due-wake-up.ts';
import * as polling from './alert-polling.repo.ts';
import {
  findHeldPolledIds,
  type HeldClaim,
  type PollWrite,
  type Reservation,
  writePollOutcomes,
} from './alert-write-back.repo.ts';
import { openWorkerSession } from './worker-session.ts';

export type { ClaimedAlert } from './alert-polling.repo.ts';
export type { HeldClaim, PollWrite, Reservation } from './alert-write-back.repo.ts';

/**
 * The narrow service the engine polls through: worker presence, scheduling, claims, leases,
 * rescheduling, the write-back and the pruning of poll runs. Every statement is one of the alerts
 * module's (docs/architecture.md, "A poll"); the engine holds no database handle.
 */
export function createAlertPollingService(deps: {
  db: Database;
  /** For each worker's own session, held outside the pool; without it, only heartbeats tell. */
  databaseUrl?: string | undefined;
}) {
  const { db } = deps;
  const sessions = new Map<string, ReturnType<typeof openWorkerSession>>();

  async function sessionOf(workerId: string) {
    let session = sessions.get(workerId);
    if (!session && deps.databaseUrl) {
      // Opened again after a loss: the row then names the new backend.
      session = openWorkerSession(deps.databaseUrl, (pid) =>
        polling.setWorkerSession(db, workerId, pid).catch(() => {}),
      );
      sessions.set(workerId, session);
      await session.ready;
    }
    return session?.pid() ?? null;
  }

  return {
    /**
     * This worker's row: joined at start (with its own session, whose end tells peers at once that
     * the process is gone), beaten (each beat announcing how long it stays live), left at stop.
     */
    joinPool: async (worker: { id: string; hostname: string; pid: number; liveSeconds: number }) =>
      polling.registerWorker(db, { ...worker, sessionPid: await sessionOf(worker.id) }),
    beat: (workerId: string, liveSeconds: number) => polling.beatHeartbeat(db, workerId, liveSeconds),
    reapDeadWorkers: () => polling.reapDeadWorkers(db),
    /** Hands every claim of this worker back and leaves the pool. */
    leavePool: async (workerId: string) => {
      await polling.removeWorker(db, workerId);
      const session = sessions.get(workerId);
      sessions.delete(workerId);
      await session?.close();
    },
    /** Hands back claims of polls not started (a stopping worker), keeping their due times. */
    releaseClaims: (workerId: string, claims: { id: string; token: string | null }[]) =>
      polling.releaseClaims(db, workerId, claims),

    scheduleNew: (options: { limit: number; prompt: number }) => polling.scheduleNewAlerts(db, options),
    claimDue: (options: Parameters<typeof polling.claimDueAlerts>[1]) => polling.claimDueAlerts(db, options),
    /** When a worker with nothing claimed next has something to do (null: no alert is polled). */
    nextDue: (workerId: string) => readNextDue(db, workerId),
    /**
     * Calls `wake` whenever an alert becomes due sooner than it was (created, edited, resumed, Check
     * now, claims handed back); null without a database URL to listen on.
     */
    onDueSooner: (wake: () => void) => (deps.databaseUrl ? listenForDueAlerts(deps.databaseUrl, wake) : null),
    /** This worker's reservations coming due (a read: their claims were kept by its write-backs). */
    readReserved: (options: Parameters<typeof polling.readReservedAlerts>[1]) =>
      polling.readReservedAlerts(db, options),
    /** This worker's reservations long overdue (a backstop: moved ones are handed back, migration 0025). */
    readOverdueReservations: (options: Parameters<typeof polling.readOverdueReservations>[1]) =>
      polling.readOverdueReservations(db, options),
    renewLeases: (workerId: string, ids: string[], leaseSeconds: number) =>
      polling.renewLeases(db, workerId, ids, leaseSeconds),
    reschedule: (workerId: string, items: Parameters<typeof polling.rescheduleClaims>[2]) =>
      polling.rescheduleClaims(db, workerId, items),

    /** Which claims are still this poll's, on alerts still polled: only those may notify. */
    heldPolledIds: (workerId: string, claims: HeldClaim[]) => findHeldPolledIds(db, workerId, claims),
    /**
     * One statement for the batch: alerts (with the kept answer), claims released or kept as
     * reservations, poll runs.
     */
    writeBack: (
      workerId: string,
      batch: PollWrite[],
      notified: ReadonlySet<string>,
      reservation: Reservation | null = null,
    ) => writePollOutcomes(db, workerId, batch, notified, reservation),

    prunePollRuns: (retentionHours: number) => polling.prunePollRuns(db, retentionHours),

    /** The pool's alert figures for GET /api/health (live workers, polled, due backlog, stale). */
    poolFigures: () => polling.readPoolFigures(db),
  };
}

export type AlertPollingService = ReturnType<typeof createAlertPollingService>;
