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
  let telling: Promise<unknown> = Promise.resolve();

  /** Each worker looks for untold health changes now and then; the rows' locks keep rounds apart. */
  function tellHealthSoon() {
    healthTimer = setTimeout(() => {
      telling = deps
        .tellHealth()
        .catch((err) => log.error({ err }, 'engine: telling owners of health changes failed'))
        .finally(() => {
          if (running) tellHealthSoon();
        });
    }, deps.config.HEALTH_NOTICE_TICK_MS);
  }

  const leases = createLeaseKeeper({ ...deps, ...state });
  const pollRunner = createPollRunner({ ...deps, ...state, figures, liveWorkers: leases.liveWorkers });
  const reservations = createReservations({ ...deps, ...state });
  const claimLoop = createClaimLoop({
    ...deps,
    ...state,
    figures,
    reservations,
    dispatch: pollRunner.dispatch,
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
      loopDelay.enable();
      await leases.start();
      claimLoop.start();
      tellHealthSoon();
      figuresTimer = setInterval(() => log.info({ engine: snapshot() }, 'engine figures'), FIGURES_LOG_MS);
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
      claimLoop.stop();
      if (figuresTimer) clearInterval(figuresTimer);
      if (healthTimer) clearTimeout(healthTimer);
      const deadline = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
      await deps.alerts
        .releaseClaims(workerId, pending.takeUnstarted())
        .catch((err) => log.warn({ err }, 'engine: handing back unstarted polls failed; they go at leave'));
      await pollRunner.stop(deadline);
      await Promise.race([telling, deadline]);
      leases.stop();
      loopDelay.disable();
      await leases.leave().catch((err) => log.error({ err }, 'engine: releasing claims failed'));
      pending.clear();
      log.info({ workerId }, 'engine stopped');
    },

    figures: snapshot,
  };
}

export type Engine = ReturnType<typeof createEngine>;
