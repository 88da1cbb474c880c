import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createClaimLoop } from './claim-loop.ts';
import { createDbClock } from './db-clock.ts';
import type { EngineDeps, WorkerState } from './engine-deps.ts';
import { createLeaseKeeper } from './leases.ts';
import { createLocalFigures } from './local-figures.ts';
import { createPendingClaims } from './pending-claims.ts';
import { createPollRunner } from './poll-runner.ts';
import { createReservations } from './reservations.ts';

const FIGURES_LOG_MS = 30_000;

/**
 * The polling engine of one worker process (docs/decisions.md "Engine"), composed of
 * parts sharing this worker's pending claims and its estimate of the database clock:
 * - the claim loop (`claim-loop.ts`) reads this worker's reservations coming due (`reservations.ts`:
 *   claims its write-backs kept) and claims other due alerts in batches, one statement each;
 * - the poll runner (`poll-runner.ts`) polls each alert at its due time with bounded concurrency and
 *   writes the outcomes back in small set-based batches;
 * - the lease keeper (`leases.ts`) beats this worker's heartbeat, so the other workers release its
 *   claims within seconds should it die, and renews the leases of slow polls;
 * - every HEALTH_NOTICE_TICK_MS, the alerts module tells owners of their alerts' health changes.
 */
export function createEngine(deps: EngineDeps) {
  const { log } = deps;
  const workerId = randomUUID();
  const state: WorkerState = { workerId, clock: createDbClock(), pending: createPendingClaims() };
  const { pending } = state;
  const figures = createLocalFigures();
  // Event-loop delay is the first sign of a worker short of CPU: every poll and write waits on it.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  let running = false;
  let figuresTimer: NodeJS.Timeout | null = null;
  let healthTimer: NodeJS.Timeout | null = null;
  let healthTimerLong = false;
  let telling: Promise<unknown> = Promise.resolve();
  /** Local time this worker last claimed alerts or told owners something. */
  let lastActiveAt = 0;
  const { HEALTH_NOTICE_TICK_MS, HEALTH_NOTICE_DELAY_SECONDS, HEALTH_SWEEP_MS } = deps.config;
  // A poll's health change is tellable within four delays (alert-health.repo.ts, MAX_WAIT_DELAYS).
  const activeWindowMs = 4 * HEALTH_NOTICE_DELAY_SECONDS * 1000 + HEALTH_NOTICE_TICK_MS;

  /**
   * Each worker looks for untold health changes now and then; the rows' locks keep rounds apart.
   * Health changes come from polls, so a worker looks every HEALTH_NOTICE_TICK_MS while it polls
   * and for as long after as a change of its polls may wait to be told; otherwise every
   * HEALTH_SWEEP_MS, which the pool-wide sweep (staleness, template health) needs anyway.
   */
  function tellHealthSoon() {
    const active = pending.size > 0 || Date.now() - lastActiveAt < activeWindowMs;
    healthTimerLong = !active && HEALTH_SWEEP_MS > HEALTH_NOTICE_TICK_MS;
    healthTimer = setTimeout(
      () => {
        healthTimer = null;
        telling = deps
          .tellHealth()
          .then((told) => {
            if (told > 0) lastActiveAt = Date.now();
          })
          .catch((err) => log.error({ err }, 'engine: telling owners of health changes failed'))
          .finally(() => {
            if (running) tellHealthSoon();
          });
      },
      healthTimerLong ? HEALTH_SWEEP_MS : HEALTH_NOTICE_TICK_MS,
    );
  }

  /** Polls began: a health round sleeping the long sleep comes at the short pace. */
  function markActive() {
    lastActiveAt = Date.now();
    leases.busy();
    if (running) loopDelay.enable();
    if (running && healthTimer && healthTimerLong) {
      clearTimeout(healthTimer);
      healthTimer = null;
      healthTimerLong = false;
      tellHealthSoon();
    }
  }

  // The claim loop, made below, says whether there is anything to poll: the lease keeper's pace.
  const leases = createLeaseKeeper({ ...deps, ...state, unscheduled: () => claimLoop.unscheduled() });
  const pollRunner = createPollRunner({ ...deps, ...state, figures, liveWorkers: leases.liveWorkers });
  const reservations = createReservations({ ...deps, ...state });
  const claimLoop = createClaimLoop({
    ...deps,
    ...state,
    figures,
    reservations,
    dispatch: (alerts) => {
      markActive();
      return pollRunner.dispatch(alerts);
    },
  });

  function snapshot() {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const eventLoopDelayMs = {
      p50: ms(loopDelay.percentile(50)),
      p99: ms(loopDelay.percentile(99)),
      max: ms(loopDelay.max),
    };
    loopDelay.reset();
    const { inFlight, hosts, writer } = pollRunner.figures();
    return {
      eventLoopDelayMs,
      workerId,
      liveWorkers: leases.liveWorkers(),
      pending: pending.size,
      inFlight,
      ...figures.snapshot(),
      hosts,
      writer,
    };
  }

  return {
    workerId,

    async start() {
      await leases.join();
      running = true;
      pollRunner.start();
      // Sampled while polling (markActive), not a hundred times a second while idle.
      await leases.start();
      claimLoop.start();
      tellHealthSoon();
      // Said while there is something to say: an idle worker's figures do not change.
      let loggedPolls = -1;
      figuresTimer = setInterval(() => {
        const polls = figures.polls();
        if (polls === loggedPolls && pending.size === 0) {
          // Nor is its event loop worth sampling a hundred times a second: markActive() resumes it.
          loopDelay.disable();
          return;
        }
        loggedPolls = polls;
        log.info({ engine: snapshot() }, 'engine figures');
      }, FIGURES_LOG_MS);
      log.info({ workerId }, 'engine started');
    },

    /**
     * Stops claiming and hands the polls not yet started back to the pool at once (peers poll them
     * at their due times); lets the polls in flight finish and writes them back within `timeoutMs`,
     * beating the heartbeat and renewing leases all along, so no peer takes this worker for dead
     * and polls its alerts again; then leaves, handing back whatever is left.
     */
    async stop(timeoutMs = 7000) {
      if (!running) return;
      running = false;
      const claimsStopped = claimLoop.stop();
      if (figuresTimer) clearInterval(figuresTimer);
      if (healthTimer) clearTimeout(healthTimer);
      const deadline = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
      await deps.alerts
        .releaseClaims(workerId, pending.takeUnstarted())
        .catch((err) => log.warn({ err }, 'engine: handing back unstarted polls failed; they go at leave'));
      await pollRunner.stop(deadline);
      await Promise.race([telling, deadline]);
      await claimsStopped;
      leases.stop();
      loopDelay.disable();
      await leases.leave().catch((err) => log.error({ err }, 'engine: releasing claims failed'));
      pending.clear();
      log.info({ workerId }, 'engine stopped');
    },

    figures: snapshot,
    /** Whether the claim loop sleeps until the next due time (nothing claimed, nothing held). */
    asleep: () => claimLoop.asleep(),
  };
}

export type Engine = ReturnType<typeof createEngine>;
