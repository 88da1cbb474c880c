import type { EnginePartDeps } from './engine-deps.ts';
import { createWorkerPresence } from './worker-presence.ts';

const HEARTBEAT_MS = 1000;
/** An idle worker's beat: at most this often, and twice within its timeout, so peers never take it for dead. */
const IDLE_HEARTBEAT_MAX_MS = 10_000;
/**
 * A worker alone in the pool with no alert to poll (none claimed, none due, none reserved) beats this
 * often and announces itself live for three beats: it holds nothing, and no peer waits on its beat.
 */
const UNSCHEDULED_HEARTBEAT_MS = 20_000;
/**
 * An idle worker alone in the pool reaps at least this often: a peer hung with its session open
 * (not beating, so not counted live) is reaped then, if no busy worker did it first.
 */
const IDLE_REAP_MS = 30_000;

/**
 * Lease and worker presence: this worker's heartbeat row (joined at start, beaten every second while
 * it holds claims, left at stop; the beat announces how long the worker stays live, counts the live
 * workers, reads the database's clock and reaps dead peers) and the renewal of the leases on claims
 * held longer than half a lease, so a slow poll keeps its claim while a dead worker's claims return
 * to the pool. A worker holding no claims beats every third of ENGINE_WORKER_TIMEOUT_SECONDS (at
 * most every 10 s), and at once when it claims again: it stays live to its peers, and a peer that
 * dies holding claims is reaped by their session (docs/decisions.md, "A dead worker is noticed by its
 * session") within that third; the claims handed back wake every engine. A worker alone in the pool
 * with no alert to poll at all (`unscheduled`: the claim loop found none) beats every 20 s and
 * announces a minute (docs/decisions.md, "A worker announces its own deadline"); its first beat that
 * counts a peer is back at the idle pace. Alone among live workers, an idle one reaps every
 * IDLE_REAP_MS only.
 */
export function createLeaseKeeper(deps: EnginePartDeps & { unscheduled: () => boolean }) {
  const { alerts, config, log, workerId, clock, pending } = deps;
  const timeoutSeconds = config.ENGINE_WORKER_TIMEOUT_SECONDS;
  const presence = createWorkerPresence({ alerts, workerId, liveSeconds: timeoutSeconds, log });
  let liveWorkers = 1;
  /** Alone, holding nothing and with nothing to poll: the rare beat. */
  const unscheduled = () => pending.size === 0 && liveWorkers === 1 && deps.unscheduled();
  const timers: NodeJS.Timeout[] = [];

  let reapedAt = 0;

  async function heartbeat() {
    const now = Date.now();
    const reapAlone = pending.size > 0 || now - reapedAt >= IDLE_REAP_MS;
    if (reapAlone) reapedAt = now;
    const liveSeconds = unscheduled()
      ? Math.max(timeoutSeconds, (3 * UNSCHEDULED_HEARTBEAT_MS) / 1000)
      : timeoutSeconds;
    const beat = await presence.beat(liveSeconds, reapAlone);
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

  const idleBeatMs = Math.max(
    HEARTBEAT_MS,
    Math.min(IDLE_HEARTBEAT_MAX_MS, (config.ENGINE_WORKER_TIMEOUT_SECONDS * 1000) / 3),
  );
  let beatSentAt = 0;
  let running = false;
  let beatTimer: NodeJS.Timeout | null = null;

  /**
   * The next beat is timed from this one's start, not its end (a beat may overlap a slow one, as with
   * setInterval): on a loaded database a beat and its reap can take seconds, and waiting for them
   * would let the heartbeat fall behind the timeout.
   */
  function beatSoon(
    delay = pending.size > 0 ? HEARTBEAT_MS : unscheduled() ? UNSCHEDULED_HEARTBEAT_MS : idleBeatMs,
  ) {
    beatTimer = setTimeout(() => {
      beatTimer = null;
      beatSentAt = Date.now();
      void heartbeat();
      if (running) beatSoon();
    }, delay);
  }

  function every(ms: number, fn: () => Promise<void>) {
    timers.push(setInterval(() => void fn(), ms));
  }

  return {
    join: () => presence.join(),

    /** Beats once (live workers, database clock), then keeps beating and renewing. */
    async start(): Promise<void> {
      await heartbeat();
      running = true;
      beatSoon();
      every((config.ENGINE_LEASE_SECONDS * 1000) / 4, renew);
    },

    stop(): void {
      running = false;
      if (beatTimer) clearTimeout(beatTimer);
      for (const t of timers) clearInterval(t);
    },

    /**
     * Claims were taken: a worker leaving idle beats now (its last beat may be most of a timeout
     * old), then at the busy pace.
     */
    busy(): void {
      if (!running || !beatTimer) return;
      clearTimeout(beatTimer);
      beatSoon(Math.max(0, HEARTBEAT_MS - (Date.now() - beatSentAt)));
    },

    /** Hands every claim back and leaves the pool. */
    leave: () => presence.leave(),

    liveWorkers: () => liveWorkers,
  };
}
