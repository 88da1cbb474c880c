import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import { createSemaphore } from '../platform/semaphore.ts';
import { createCoalescer } from './coalescer.ts';
import type { EngineDeps, WorkerState } from './engine-deps.ts';
import { createHostLimiter } from './host-limiter.ts';
import type { LocalFigures } from './local-figures.ts';
import type { PendingClaim } from './pending-claims.ts';
import { createPoller, type FetchResult } from './poller.ts';
import { createProxyRotation } from './proxy-rotation.ts';
import { createResultWriter, type PollRecord } from './result-writer.ts';
import { catchUp, startTime } from './schedule.ts';
import { createTemplateCache } from './template-cache.ts';

/** How many polls may wait for one host's turn, per slot of the host (at least HOST_QUEUE_MIN). */
const HOST_QUEUE_PER_SLOT = 16;
const HOST_QUEUE_MIN = 64;

/** How far past the look-ahead a next due time must be for the write-back to keep its claim. */
const RESERVATION_MARGIN_MS = 2000;

/** A poll given up because the engine stopped before its slot came. */
class PollStopped extends Error {}

/**
 * Dispatch and write-back: each claimed alert polls at its due time (or is rescheduled when too
 * late to catch up), with bounded concurrency, within the host limits, through the proxy rotation;
 * each outcome goes to the result writer, which settles the claim once written.
 */
export function createPollRunner(
  deps: EngineDeps &
    WorkerState & {
      figures: LocalFigures;
      /** Live workers in the pool: this worker takes its share of the per-host limits. */
      liveWorkers: () => number;
    },
) {
  const { alerts: polling, config, log, clock, pending, figures } = deps;
  let running = false;
  const inFlight = new Set<Promise<unknown>>();
  const templates = createTemplateCache(deps.templates);
  const semaphore = createSemaphore(config.ENGINE_CONCURRENCY);

  const limiter = createHostLimiter({
    // Each worker takes its share of the per-host limits, so the pool as a whole keeps them.
    limits: () => {
      const concurrency = Math.max(1, Math.floor(config.ENGINE_HOST_CONCURRENCY / deps.liveWorkers()));
      return {
        concurrency,
        ratePerSecond: config.ENGINE_HOST_RATE_PER_SECOND / deps.liveWorkers(),
        queue: Math.max(HOST_QUEUE_MIN, concurrency * HOST_QUEUE_PER_SLOT),
      };
    },
  });
  const rotation = createProxyRotation({ listActive: deps.proxies.listActive, refreshMs: 5000 });
  const poll = createPoller({
    build: deps.build,
    requestKey: deps.requestKey,
    send: deps.send,
    evaluate: deps.evaluate,
    proxyOutcome: deps.proxies,
    rotation,
    limiter,
    // A poll whose slot comes after stop() is not sent: its claim goes back to the pool.
    slots: (task) => semaphore(() => (running ? task() : Promise.reject(new PollStopped()))),
    coalescer: createCoalescer<FetchResult>({ windowMs: config.ENGINE_COALESCE_WINDOW_MS }),
    now: clock.now,
    errorAfter: config.ENGINE_ERROR_AFTER_FAILURES,
    driftAfter: config.ENGINE_DRIFT_AFTER_POLLS,
    log,
  });
  const writer = createResultWriter({
    alerts: polling,
    workerId: deps.workerId,
    notify: deps.notify,
    log,
    flushMs: config.ENGINE_FLUSH_MS,
    quietFlushMs: config.ENGINE_QUIET_FLUSH_MS,
    maxBatch: config.ENGINE_BATCH_SIZE,
    concurrency: config.ENGINE_FLUSH_CONCURRENCY,
    // A lone worker keeps its claims for the next due time, unless it comes before this worker may
    // have read past. With several live workers every claim goes back to the pool, which they share
    // by taking turns at it (kept claims would leave a worker that joins late with few alerts).
    reservation: () => {
      const live = deps.liveWorkers();
      return {
        share: live <= 1 ? 1 : 0,
        afterMs: config.ENGINE_LOOKAHEAD_MS + RESERVATION_MARGIN_MS,
        leaseSeconds: config.ENGINE_LEASE_SECONDS,
      };
    },
    onFlushed: (flush) => figures.recordFlush(flush),
    onSettled(records: PollRecord[], written: boolean) {
      for (const r of records) {
        pending.settle(r.id, r.token);
        if (!written) continue;
        figures.recordPoll(r);
        deps.metrics?.recordPoll(r.outcome.pollClass, r.latenessMs);
      }
    },
  });

  function runPoll(alert: ClaimedAlert, claim: PendingClaim) {
    claim.timer = null;
    // Poll slots are taken inside the poll, once the host's turn has come (poller.ts).
    const task = (async () => {
      if (!running) return;
      const template = templates.get(alert.template_id);
      writer.add(await poll(alert, template, claim.token));
    })()
      .catch((err) => {
        if (err instanceof PollStopped) return;
        log.error({ err, alertId: alert.id }, 'engine: poll failed unexpectedly');
        pending.drop(alert.id);
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }

  return {
    start() {
      running = true;
    },

    /**
     * Sets each claimed alert's poll for its start time (the quantum at or after its due time,
     * `startTime`); reschedules those too late to catch up.
     */
    async dispatch(alerts: ClaimedAlert[]): Promise<void> {
      // The pool is read after the claim, so a proxy added or switched off before it carries these
      // polls. Failing to read it keeps the list read before: the polls still go out.
      const pool = rotation
        .refresh()
        .catch((err) => log.warn({ err }, 'engine: reading the proxy pool failed; using the last list'));
      await Promise.all([templates.load(alerts), pool]);
      const late: { id: string; token: string | null; dueAt: Date; nextDueAt: Date }[] = [];
      const now = clock.now();
      for (const alert of alerts) {
        const dueMs = alert.next_due_at.getTime();
        const plan = catchUp(
          dueMs,
          alert.polling_interval_seconds * 1000,
          now,
          config.ENGINE_CATCH_UP_SECONDS * 1000,
        );
        if (plan.action === 'reschedule') {
          late.push({
            id: alert.id,
            token: alert.claim_token,
            dueAt: alert.next_due_at,
            nextDueAt: new Date(plan.nextDueMs),
          });
          continue;
        }
        const claim = pending.add(alert.id, alert.claim_token);
        const delay = startTime(dueMs, config.ENGINE_START_QUANTUM_MS) - now;
        if (delay <= 0) runPoll(alert, claim);
        else claim.timer = setTimeout(() => runPoll(alert, claim), delay);
      }
      if (late.length > 0) {
        figures.recordRescheduled(late.length);
        await polling.reschedule(deps.workerId, late);
      }
    },

    /**
     * Starts no more polls, lets those in flight finish and writes them back, each wait bounded by
     * `deadline`.
     */
    async stop(deadline: Promise<unknown>): Promise<void> {
      running = false;
      pending.cancelTimers();
      await Promise.race([Promise.allSettled([...inFlight]), deadline]);
      await Promise.race([writer.drain(), deadline]);
    },

    figures: () => ({ inFlight: inFlight.size, hosts: limiter.figures(), writer: writer.figures() }),
  };
}
