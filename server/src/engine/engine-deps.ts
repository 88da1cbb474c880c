import type { Config } from '../config.ts';
import type { AlertPollingService } from '../modules/alerts/alert-polling.service.ts';
import type { Logger } from '../platform/logger.ts';
import type { DbClock } from './db-clock.ts';
import type { PendingClaims } from './pending-claims.ts';
import type { PollerDeps } from './poller.ts';
import type { RotatingProxy } from './proxy-rotation.ts';
import type { NotifyFn } from './result-writer.ts';
import type { TemplateSource } from './template-cache.ts';

/** The settings the engine reads (config.ts documents each). */
type EngineConfig = Pick<
  Config,
  | 'ENGINE_HOST_CONCURRENCY'
  | 'ENGINE_HOST_RATE_PER_SECOND'
  | 'ENGINE_BATCH_SIZE'
  | 'ENGINE_CONCURRENCY'
  | 'ENGINE_LOOKAHEAD_MS'
  | 'ENGINE_TICK_MS'
  | 'ENGINE_IDLE_POLL_MS'
  | 'ENGINE_MAX_PENDING'
  | 'ENGINE_ERROR_AFTER_FAILURES'
  | 'ENGINE_DRIFT_AFTER_POLLS'
  | 'HEALTH_NOTICE_TICK_MS'
  | 'HEALTH_NOTICE_DELAY_SECONDS'
  | 'HEALTH_SWEEP_MS'
  | 'ENGINE_LEASE_SECONDS'
  | 'ENGINE_WORKER_TIMEOUT_SECONDS'
  | 'ENGINE_COALESCE_WINDOW_MS'
  | 'ENGINE_CATCH_UP_SECONDS'
  | 'ENGINE_START_QUANTUM_MS'
  | 'ENGINE_FLUSH_MS'
  | 'ENGINE_QUIET_FLUSH_MS'
  | 'ENGINE_FLUSH_CONCURRENCY'
  | 'ENGINE_PROMPT_FIRST_POLLS'
>;

/**
 * What the engine is given: its settings and the product's parts it polls with. Every statement on
 * the alert row goes through the alerts module's polling service; the engine holds no database.
 */
export interface EngineDeps {
  alerts: AlertPollingService;
  templates: TemplateSource;
  config: EngineConfig;
  log: Logger;
  build: PollerDeps['build'];
  requestKey: PollerDeps['requestKey'];
  send: PollerDeps['send'];
  evaluate: PollerDeps['evaluate'];
  notify: NotifyFn;
  /** Tells owners of their alerts' health changes (one round; answers the notices handed over). */
  tellHealth: () => Promise<number>;
  /** The operator's figures: each written poll's class and lateness (GET /metrics). */
  metrics?: { recordPoll(pollClass: string, latenessMs: number): void };
  proxies: PollerDeps['proxyOutcome'] & { listActive(): Promise<RotatingProxy[]> };
}

/** What the parts of one worker's engine share: its id, its database-clock estimate, its claims. */
export interface WorkerState {
  workerId: string;
  clock: DbClock;
  pending: PendingClaims;
}

/** The engine's own settings and the polling service, as each of its parts receives them. */
export type EnginePartDeps = Pick<EngineDeps, 'alerts' | 'config' | 'log'> & WorkerState;
