import os from 'node:os';
import type { AlertPollingService } from '../modules/alerts/alert-polling.service.ts';
import type { Logger } from '../platform/logger.ts';

/**
 * This worker's row in `engine_workers`: joined at start, beaten while it runs (each beat announcing
 * how long it stays live: migration 0024), left at stop. A beat may also remove workers past their
 * deadline and release their claims, so a hung worker's alerts poll again soon after its deadline,
 * whichever worker notices first.
 */
export function createWorkerPresence(deps: {
  alerts: Pick<AlertPollingService, 'joinPool' | 'beat' | 'reapDeadWorkers' | 'leavePool'>;
  workerId: string;
  /** The deadline announced on joining (and on joining again). */
  liveSeconds: number;
  log: Logger;
}) {
  const { alerts, workerId, log } = deps;
  const join = () =>
    alerts.joinPool({
      id: workerId,
      hostname: os.hostname(),
      pid: process.pid,
      liveSeconds: deps.liveSeconds,
    });

  return {
    join,

    /**
     * Announces this worker live for `liveSeconds`; answers the number of live workers and the
     * database's clock, or null when the beat failed. `reapAlone` false: when this worker is the only
     * live one, no peer is reaped this time (one that hung is counted live until its deadline, so it
     * is reaped meanwhile).
     */
    async beat(
      liveSeconds: number,
      reapAlone = true,
    ): Promise<{ live: number; dbNow: Date; sentAt: number; answeredAt: number } | null> {
      try {
        const sentAt = Date.now();
        const beat = await alerts.beat(workerId, liveSeconds);
        const answeredAt = Date.now();
        if (!beat.present) {
          // Taken for dead (a long pause) and reaped: our claims are gone; join again.
          log.warn({ workerId }, 'engine: this worker was reaped; registering again');
          await join();
        }
        if (reapAlone || beat.live > 1) {
          const released = await alerts.reapDeadWorkers();
          if (released > 0)
            log.warn({ released }, 'engine: released the claims of a worker that stopped beating');
        }
        return { live: beat.live, dbNow: beat.dbNow, sentAt, answeredAt };
      } catch (err) {
        log.error({ err }, 'engine: heartbeat failed');
        return null;
      }
    },

    /** Hands every claim back and leaves the pool. */
    leave: () => alerts.leavePool(workerId),
  };
}
