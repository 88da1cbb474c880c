import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from '../db/types.ts';
import type { Logger } from '../lib/logger.ts';
import { createSemaphore } from '../lib/semaphore.ts';
import { createCoalescer } from './coalescer.ts';
import {
  type ClaimedAlert,
  claimDueAlerts,
  renewLeases,
  rescheduleClaims,
  scheduleNewAlerts,
} from './engine.repo.ts';
import { createHostLimiter } from './host-limiter.ts';
import { createLocalFigures } from './local-figures.ts';
import { createPoller, type FetchResult, type PollerDeps } from './poller.ts';
import { createProxyRotation, type RotatingProxy } from './proxy-rotation.ts';
import { createResultWriter, type NotifyFn, type PollRecord } from './result-writer.ts';
import { catchUp } from './schedule.ts';
import { createTemplateCache } from './template-cache.ts';
import { createWorkerPresence } from './worker-presence.ts';

type EngineConfig = Pick<
  Config,
  | 'ENGINE_HOST_CONCURRENCY'
  | 'ENGINE_HOST_RATE_PER_SECOND'
  | 'ENGINE_BATCH_SIZE'
  | 'ENGINE_CONCURRENCY'
  | 'ENGINE_LOOKAHEAD_MS'
  | 'ENGINE_TICK_MS'
  | 'ENGINE_MAX_PENDING'
  | 'ENGINE_ERROR_AFTER_FAILURES'
  | 'ENGINE_LEASE_SECONDS'
  | 'ENGINE_WORKER_TIMEOUT_SECONDS'
  | 'ENGINE_COALESCE_WINDOW_MS'
  | 'ENGINE_CATCH_UP_SECONDS'
  | 'ENGINE_FLUSH_MS'
  | 'ENGINE_FLUSH_CONCURRENCY'
  | 'ENGINE_PROMPT_FIRST_POLLS'
>;

export interface EngineDeps {
  db: Kysely<DB>;
  config: EngineConfig;
  log: Logger;
  build: PollerDeps['build'];
  requestKey: PollerDeps['requestKey'];
  send: PollerDeps['send'];
  evaluate: PollerDeps['evaluate'];
  notify: NotifyFn;
  proxies: PollerDeps['proxyOutcome'] & { listActive(): Promise<RotatingProxy[]> };
}

const HEARTBEAT_MS = 1000;
const FIGURES_LOG_MS = 30_000;

interface Pending {
  token: string;
  claimedAt: number;
  timer: NodeJS.Timeout | null;
}

/**
 * The polling engine of one worker process (DESIGN.md §7, docs/decisions.md "Engine"). A scheduler
 * loop claims due alerts in batches (one statement each), each alert polls at its due time with
 * bounded concurrency, outcomes are written back in small set-based batches, and a heartbeat lets
 * the other workers release this worker's claims within seconds should it die.
 */
export function createEngine(deps: EngineDeps) {
  const { db, config, log } = deps;
  const workerId = randomUUID();
  const pending = new Map<string, Pending>();
  const templates = createTemplateCache(db);
  const presence = createWorkerPresence({
    db,
    workerId,
    timeoutSeconds: config.ENGINE_WORKER_TIMEOUT_SECONDS,
    log,
  });
  const figures = createLocalFigures();
  const semaphore = createSemaphore(config.ENGINE_CONCURRENCY);
  // Event-loop delay is the first sign of a worker short of CPU: every poll and write waits on it.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  let liveWorkers = 1;
  // Due times are the database's; this worker's estimate of (database clock − local clock).
  let clockOffsetMs = 0;
  const dbNow = () => Date.now() + clockOffsetMs;
  let running = false;
  let ticking = false;
  const timers: NodeJS.Timeout[] = [];
  const inFlight = new Set<Promise<unknown>>();

  const limiter = createHostLimiter({
    // Each worker takes its share of the per-host limits, so the pool as a whole keeps them.
    limits: () => ({
      concurrency: Math.max(1, Math.floor(config.ENGINE_HOST_CONCURRENCY / liveWorkers)),
      ratePerSecond: config.ENGINE_HOST_RATE_PER_SECOND / liveWorkers,
    }),
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
    coalescer: createCoalescer<FetchResult>({ windowMs: config.ENGINE_COALESCE_WINDOW_MS }),
    now: dbNow,
    errorAfter: config.ENGINE_ERROR_AFTER_FAILURES,
    log,
  });
  const writer = createResultWriter({
    db,
    workerId,
    notify: deps.notify,
    log,
    flushMs: config.ENGINE_FLUSH_MS,
    maxBatch: config.ENGINE_BATCH_SIZE,
    concurrency: config.ENGINE_FLUSH_CONCURRENCY,
    onFlushed: (flush) => figures.recordFlush(flush),
    onSettled(records: PollRecord[], written: boolean) {
      for (const r of records) {
        if (pending.get(r.id)?.token === r.token) pending.delete(r.id);
        if (written) figures.recordPoll(r);
      }
    },
  });

  function runPoll(alert: ClaimedAlert, entry: Pending) {
    entry.timer = null;
    const task = semaphore(async () => {
      if (!running) return;
      const template = templates.get(alert.template_id);
      writer.add(await poll(alert, template, entry.token));
    })
      .catch((err) => {
        log.error({ err, registrationId: alert.id }, 'engine: poll failed unexpectedly');
        pending.delete(alert.id);
      })
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  }

  async function dispatch(alerts: ClaimedAlert[], token: string) {
    await templates.load(alerts);
    const late: { id: string; token: string; dueAt: Date; nextDueAt: Date }[] = [];
    const now = dbNow();
    for (const alert of alerts) {
      const dueMs = alert.next_due_at.getTime();
      const plan = catchUp(
        dueMs,
        alert.polling_interval_seconds * 1000,
        now,
        config.ENGINE_CATCH_UP_SECONDS * 1000,
      );
      if (plan.action === 'reschedule') {
        late.push({ id: alert.id, token, dueAt: alert.next_due_at, nextDueAt: new Date(plan.nextDueMs) });
        continue;
      }
      const entry: Pending = { token, claimedAt: Date.now(), timer: null };
      pending.set(alert.id, entry);
      const delay = dueMs - now;
      if (delay <= 0) runPoll(alert, entry);
      else entry.timer = setTimeout(() => runPoll(alert, entry), delay);
    }
    if (late.length > 0) {
      figures.recordRescheduled(late.length);
      await rescheduleClaims(db, late);
    }
  }

  async function tick() {
    if (!running || ticking) return;
    ticking = true;
    try {
      await scheduleNewAlerts(db, { limit: 5000, prompt: config.ENGINE_PROMPT_FIRST_POLLS });
      while (running) {
        const room = config.ENGINE_MAX_PENDING - pending.size;
        if (room <= 0) break;
        const limit = Math.min(config.ENGINE_BATCH_SIZE, room);
        const token = randomUUID();
        const before = Date.now();
        const { alerts, dbNow: claimedAt } = await claimDueAlerts(db, {
          workerId,
          token,
          limit,
          dueBefore: new Date(dbNow() + config.ENGINE_LOOKAHEAD_MS),
          leaseSeconds: config.ENGINE_LEASE_SECONDS,
        });
        figures.recordClaim(alerts.length, Date.now() - before);
        if (alerts.length > 0) {
          clockOffsetMs = claimedAt.getTime() - (before + Date.now()) / 2;
          await dispatch(alerts, token);
        }
        if (alerts.length < limit) break;
      }
    } catch (err) {
      log.error({ err }, 'engine: scheduling failed; retrying');
    } finally {
      ticking = false;
    }
  }

  async function heartbeat() {
    const beat = await presence.beat();
    if (!beat) return;
    liveWorkers = beat.live;
    if (pending.size === 0) clockOffsetMs = beat.dbNow.getTime() - (beat.sentAt + beat.answeredAt) / 2;
  }

  async function renew() {
    const cutoff = Date.now() - (config.ENGINE_LEASE_SECONDS * 1000) / 2;
    const ids = [...pending].filter(([, p]) => p.claimedAt < cutoff).map(([id]) => id);
    try {
      await renewLeases(db, workerId, ids, config.ENGINE_LEASE_SECONDS);
      for (const id of ids) {
        const p = pending.get(id);
        if (p) p.claimedAt = Date.now();
      }
    } catch (err) {
      log.error({ err }, 'engine: renewing leases failed');
    }
  }

  function snapshot() {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const eventLoopDelayMs = {
      p50: ms(loopDelay.percentile(50)),
      p99: ms(loopDelay.percentile(99)),
      max: ms(loopDelay.max),
    };
    loopDelay.reset();
    return {
      eventLoopDelayMs,
      workerId,
      liveWorkers,
      pending: pending.size,
      inFlight: inFlight.size,
      ...figures.snapshot(),
      hosts: limiter.figures(),
      writer: writer.figures(),
    };
  }

  // Jittered, so the workers of a pool take turns at the alerts coming due rather than the one whose
  // ticks happen to fall first taking nearly all of them.
  let tickTimer: NodeJS.Timeout | null = null;
  function scheduleTick(delay = 0) {
    if (!running) return;
    tickTimer = setTimeout(async () => {
      await tick();
      scheduleTick(config.ENGINE_TICK_MS * (0.5 + Math.random()));
    }, delay);
  }

  function every(ms: number, fn: () => Promise<void>) {
    const t = setInterval(() => void fn(), ms);
    timers.push(t);
  }

  return {
    workerId,

    async start() {
      await presence.join();
      running = true;
      loopDelay.enable();
      await heartbeat();
      every(HEARTBEAT_MS, heartbeat);
      scheduleTick();
      every(FIGURES_LOG_MS, async () => log.info({ engine: snapshot() }, 'engine figures'));
      every((config.ENGINE_LEASE_SECONDS * 1000) / 4, renew);
      log.info({ workerId }, 'engine started');
    },

    /**
     * Stops claiming, lets in-flight polls finish and writes them back, then hands every claim not
     * yet started back to the pool and leaves.
     */
    async stop(timeoutMs = 7000) {
      if (!running) return;
      running = false;
      loopDelay.disable();
      for (const t of timers) clearInterval(t);
      if (tickTimer) clearTimeout(tickTimer);
      for (const p of pending.values()) if (p.timer) clearTimeout(p.timer);
      const deadline = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), deadline]);
      await Promise.race([writer.drain(), deadline]);
      await presence.leave().catch((err) => log.error({ err }, 'engine: releasing claims failed'));
      pending.clear();
      log.info({ workerId }, 'engine stopped');
    },

    figures: snapshot,
  };
}

export type Engine = ReturnType<typeof createEngine>;
