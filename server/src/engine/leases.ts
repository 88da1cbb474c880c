import type { EnginePartDeps } from './engine-deps.ts';
import { createWorkerPresence } from './worker-presence.ts';

const HEARTBEAT_MS = 1000;

/**
 * Lease and worker presence: this worker's heartbeat row (joined at start, beaten every second, left
 * at stop; the beat counts the live workers and reads the database's clock) and the renewal of the
 * leases on claims held longer than half a lease, so a slow poll keeps its claim while a dead worker's
 * claims return to the pool.
 */
export function createLeaseKeeper(deps: EnginePartDeps) {
  const { alerts, config, log, workerId, clock, pending } = deps;
  const presence = createWorkerPresence({
    alerts,
    workerId,
    timeoutSeconds: config.ENGINE_WORKER_TIMEOUT_SECONDS,
    log,
  });
  const timers: NodeJS.Timeout[] = [];
  let liveWorkers = 1;

  async function heartbeat() {
    const beat = await presence.beat();
    if (!beat) return;
    liveWorkers = beat.live;
    // While polls are pending the claims keep the clock estimate fresh; an idle worker uses the beat.
    if (pending.size === 0) clock.observe(beat.dbNow, beat.sentAt, beat.answeredAt);
  }

  async function renew() {
    const cutoff = Date.now() - (config.ENGINE_LEASE_SECONDS * 1000) / 2;
    const ids = pending.claimedBefore(cutoff);
    try {
      await alerts.renewLeases(workerId, ids, config.ENGINE_LEASE_SECONDS);
      pending.renewed(ids);
    } catch (err) {
      log.error({ err }, 'engine: renewing leases failed');
    }
  }

  function every(ms: number, fn: () => Promise<void>) {
    timers.push(setInterval(() => void fn(), ms));
  }

  return {
    join: () => presence.join(),

    /** Beats once (live workers, database clock), then keeps beating and renewing. */
    async start(): Promise<void> {
      await heartbeat();
      every(HEARTBEAT_MS, heartbeat);
      every((config.ENGINE_LEASE_SECONDS * 1000) / 4, renew);
    },

    stop(): void {
      for (const t of timers) clearInterval(t);
    },

    /** Hands every claim back and leaves the pool. */
    leave: () => presence.leave(),

    liveWorkers: () => liveWorkers,
  };
}
