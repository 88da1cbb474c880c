import { randomUUID } from 'node:crypto';
import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { EnginePartDeps } from './engine-deps.ts';
import type { LocalFigures } from './local-figures.ts';
import type { Reservations } from './reservations.ts';

/**
 * How often a claim also takes alerts whose holder's lease ran out (a backstop; it walks the due index
 * from its oldest entry, past every version the write-backs left since the last vacuum): every half
 * lease, at most every EXPIRED_CLAIM_MAX_MS. A dead worker's claims come back sooner, by its session
 * or its heartbeat (leases.ts); this takes those of a worker alive but stuck.
 */
const EXPIRED_CLAIM_MAX_MS = 60_000;
/** How often new alerts are looked for without a wake-up announcing one (a backstop). */
const SCHEDULE_NEW_MS = 10_000;
/** New alerts given a due time per statement. */
const SCHEDULE_NEW_LIMIT = 5000;

/**
 * The scheduler: each tick gives new alerts their first due time, then takes this worker's
 * reservations due within the look-ahead (a read, `reservations.ts`) and claims other alerts due
 * within it in batches (one statement each) for as long as this worker has room and batches come
 * back full, and hands each batch to `dispatch`. Ticks are jittered, so the workers of a pool take
 * turns at the alerts coming due rather than the one whose ticks happen to fall first taking nearly
 * all of them.
 *
 * A worker that claimed nothing and holds nothing sleeps (docs/decisions.md, "An idle engine sleeps
 * until the next due time"): until the soonest due time less the look-ahead, at most
 * ENGINE_IDLE_POLL_MS, and `wake()` (an alert became due sooner: migration 0023's NOTIFY) ends the
 * sleep at once. A wake during a tick makes the next tick come at the usual pace, since the tick's
 * reading of the next due time may predate what woke it.
 *
 * New alerts (no due time yet) are looked for on the first tick, on the tick after a wake-up (every
 * alert created, resumed or unscheduled announces itself, and the listener's reconnect wakes the loop
 * too) and every SCHEDULE_NEW_MS as a backstop; without a wake-up listener, on every tick. A busy
 * tick then reads only reservations and claims.
 */
export function createClaimLoop(
  deps: EnginePartDeps & {
    figures: LocalFigures;
    reservations: Reservations;
    dispatch: (alerts: ClaimedAlert[]) => Promise<void>;
  },
) {
  const { alerts: polling, config, log, clock, pending, figures } = deps;
  let running = false;
  let ticking = false;
  let wokenDuringTick = false;
  let tickTimer: NodeJS.Timeout | null = null;
  /** Local time the next tick is set for. */
  let nextTickAt = 0;
  let sleeping = false;
  /** The last tick claimed nothing, and found no alert due for this worker ever (none polled, or all a peer's). */
  let unscheduled = false;
  let wakeUp: { stop(): Promise<void> } | null = null;
  let expiredClaimedAt = 0;
  const expiredClaimMs = Math.min(EXPIRED_CLAIM_MAX_MS, (config.ENGINE_LEASE_SECONDS * 1000) / 2);
  /**
   * When new alerts were last given their first due time; 0 (at start, and after every wake-up): they
   * are looked for on the next tick.
   */
  let newAlertsLookedAt = 0;

  const busyDelay = () => config.ENGINE_TICK_MS * (0.5 + Math.random());

  /** One round of claims; answers how long to wait before the next. */
  async function tick(): Promise<number> {
    ticking = true;
    wokenDuringTick = false;
    let claimed = 0;
    try {
      const started = Date.now();
      if (!wakeUp || started - newAlertsLookedAt >= SCHEDULE_NEW_MS) {
        // Set first: a wake-up during the statement asks for another look on the next tick.
        newAlertsLookedAt = started;
        const scheduled = await polling.scheduleNew({
          limit: SCHEDULE_NEW_LIMIT,
          prompt: config.ENGINE_PROMPT_FIRST_POLLS,
        });
        if (scheduled >= SCHEDULE_NEW_LIMIT) newAlertsLookedAt = 0;
      }
      while (running) {
        const room = config.ENGINE_MAX_PENDING - pending.size;
        if (room <= 0) break;
        const batch = Math.min(config.ENGINE_BATCH_SIZE, room);
        const dueBefore = new Date(clock.now() + config.ENGINE_LOOKAHEAD_MS);
        const reading = Date.now();
        const reserved = await deps.reservations.take(batch, dueBefore);
        if (reserved.dbNow) clock.observe(reserved.dbNow, reading, Date.now());
        claimed += reserved.alerts.length;
        if (reserved.alerts.length > 0) await deps.dispatch(reserved.alerts);
        const limit = batch - reserved.alerts.length;
        if (limit <= 0) continue;
        const before = Date.now();
        const expired = before - expiredClaimedAt >= expiredClaimMs;
        if (expired) expiredClaimedAt = before;
        const { alerts, dbNow: claimedAt } = await polling.claimDue({
          workerId: deps.workerId,
          token: randomUUID(),
          limit,
          dueBefore,
          leaseSeconds: config.ENGINE_LEASE_SECONDS,
          expired,
        });
        figures.recordClaim(alerts.length, Date.now() - before);
        claimed += alerts.length;
        if (alerts.length > 0) {
          clock.observe(claimedAt, before, Date.now());
          await deps.dispatch(alerts);
        }
        if (alerts.length < limit) break;
      }
      if (claimed > 0 || pending.size > 0) {
        unscheduled = false;
        return busyDelay();
      }
      return await idleDelay();
    } catch (err) {
      log.error({ err }, 'engine: scheduling failed; retrying');
      newAlertsLookedAt = 0;
      return busyDelay();
    } finally {
      ticking = false;
    }
  }

  /** Nothing claimed, nothing held: until the soonest due time less the look-ahead, bounded. */
  async function idleDelay(): Promise<number> {
    const sentAt = Date.now();
    const { nextDueAt, dbNow } = await polling.nextDue(deps.workerId);
    clock.observe(dbNow, sentAt, Date.now());
    unscheduled = nextDueAt === null && !wokenDuringTick;
    if (wokenDuringTick) return busyDelay();
    if (nextDueAt === null) return config.ENGINE_IDLE_POLL_MS;
    const untilDue = nextDueAt.getTime() - clock.now() - config.ENGINE_LOOKAHEAD_MS;
    // Due now yet not claimed (a peer is claiming it at this instant, or a new alert is waiting for
    // its first due time): look again, new alerts included, at the usual pace.
    if (untilDue <= config.ENGINE_TICK_MS) {
      newAlertsLookedAt = 0;
      return busyDelay();
    }
    // A little jitter, within the look-ahead, so idle workers woken by one due time take turns.
    const jitter = Math.random() * Math.min(config.ENGINE_TICK_MS, config.ENGINE_LOOKAHEAD_MS / 2);
    return Math.min(untilDue + jitter, config.ENGINE_IDLE_POLL_MS);
  }

  function scheduleTick(delay: number) {
    if (!running) return;
    if (tickTimer) clearTimeout(tickTimer);
    nextTickAt = Date.now() + delay;
    // Longer than the busy pace (at most 1.5 ticks): the idle sleep.
    sleeping = delay > config.ENGINE_TICK_MS * 1.5;
    tickTimer = setTimeout(async () => {
      tickTimer = null;
      sleeping = false;
      const next = await tick();
      scheduleTick(next);
    }, delay);
  }

  /** An alert became due sooner: a sleeping loop ticks now; a busy one ticks soon anyway. */
  function wake() {
    if (!running) return;
    unscheduled = false;
    newAlertsLookedAt = 0;
    if (ticking) {
      wokenDuringTick = true;
      return;
    }
    if (tickTimer && nextTickAt - Date.now() > config.ENGINE_TICK_MS) scheduleTick(0);
  }

  return {
    start() {
      running = true;
      scheduleTick(0);
      wakeUp = polling.onDueSooner(wake);
    },
    async stop() {
      running = false;
      if (tickTimer) clearTimeout(tickTimer);
      tickTimer = null;
      await wakeUp?.stop();
      wakeUp = null;
    },
    wake,
    /** Whether the loop sleeps the idle sleep (until the next due time, or a wake-up). */
    asleep: () => sleeping,
    /** Whether its last look found no alert this worker could ever poll (none polled, or a peer's). */
    unscheduled: () => unscheduled,
  };
}
