import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { Config } from './config.ts';
import { createDatabase, type DatabaseHandle } from './db/database.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded.ts';
import { migrateToLatest } from './db/migrator.ts';
import type { Engine } from './engine/engine.ts';
import { registerMaintenance } from './engine/maintenance.ts';
import { createEngineFromServices } from './engine/start-engine.ts';
import { startBoss } from './jobs/boss.ts';
import { preparedBrowsersAtMost } from './modules/notifications/channels/index.ts';
import { type DeliveryWorker, startDeliveryWorker } from './modules/notifications/delivery-worker.ts';
import { createServices, type Services } from './modules/services.ts';
import { registerAutoArchive } from './modules/watchlists/archive.jobs.ts';
import { createLogger, type Logger } from './platform/logger.ts';

/**
 * A stop's bounds: polls and deliveries in flight get DRAIN_MS to finish, pg-boss's job BOSS_STOP_MS,
 * and a stop that still hangs ends the process at FORCED_EXIT_MS, within the 10 s a container runtime
 * allows after SIGTERM.
 */
const DRAIN_MS = 6_500;
const BOSS_STOP_MS = 1_500;
const FORCED_EXIT_MS = 9_500;

export interface Runtime {
  config: Config;
  log: Logger;
  services: Services;
  /** This process's polling engine; null when RUN_WORKER=false. */
  engine: Engine | null;
  app: FastifyInstance | null;
  url: string | null;
  stop(): Promise<void>;
}

/** Resolves the database: DATABASE_URL when set, else an embedded PostgreSQL under DATA_DIR. */
export async function openDatabase(
  config: Config,
  log: Logger,
): Promise<{ url: string; handle: DatabaseHandle; embedded: EmbeddedDatabase | null }> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.DATABASE_URL;
  if (!url) {
    log.info(
      { dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT },
      'DATABASE_URL not set: using embedded PostgreSQL',
    );
    embedded = await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      port: config.EMBEDDED_PG_PORT,
      log: (line) => log.debug({ postgres: line }, 'embedded postgres'),
    });
    url = embedded.url;
    log.info({ dataDir: `${config.DATA_DIR}/postgres` }, 'embedded PostgreSQL started');
  } else {
    log.info('using external PostgreSQL from DATABASE_URL');
  }
  const handle = createDatabase(url, { max: config.DATABASE_POOL_SIZE });
  return { url, handle, embedded };
}

/**
 * Starts everything `npm start` runs: database, migrations, pg-boss, the HTTP app and (unless
 * RUN_WORKER=false) the engine's workers. `stop()` undoes it in reverse order.
 */
export async function startRuntime(
  config: Config,
  options: { http?: boolean; log?: Logger } = {},
): Promise<Runtime> {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const { url: dbUrl, handle, embedded } = await openDatabase(config, log);
  let boss: PgBoss | null = null;
  let app: FastifyInstance | null = null;
  let services: Services | null = null;
  let engine: Engine | null = null;
  let deliveryWorker: DeliveryWorker | null = null;
  let maintenanceAtStart: Promise<void> | null = null;
  const stopped = { value: false };

  async function stop() {
    if (stopped.value) return;
    stopped.value = true;
    log.info('shutting down');
    // Claiming stops at once (both stops begin synchronously) and what was not started is handed
    // back; polls and deliveries in flight finish and are written back within DRAIN_MS while HTTP
    // closes, the engine's heartbeat beating until then (docs/decisions.md, "Shutdown").
    const draining = Promise.all([
      engine?.stop(DRAIN_MS).catch((err) => log.error({ err }, 'stopping the engine failed')),
      deliveryWorker
        ?.stop(DRAIN_MS)
        .catch((err) => log.error({ err }, 'stopping the delivery worker failed')),
    ]);
    // Live streams end first: an open one would hold app.close() until the forced exit.
    await services?.live.close().catch((err) => log.error({ err }, 'closing live events failed'));
    await app?.close().catch((err) => log.error({ err }, 'closing http failed'));
    await draining;
    // A first maintenance run still pruning gets as long as pg-boss gives its job.
    if (maintenanceAtStart) await Promise.race([maintenanceAtStart, sleep(BOSS_STOP_MS)]);
    await boss
      ?.stop({ graceful: true, timeout: BOSS_STOP_MS })
      .catch((err) => log.error({ err }, 'stopping pg-boss failed'));
    await services?.channels.close().catch((err) => log.error({ err }, 'closing channels failed'));
    await services?.outbound.close().catch((err) => log.error({ err }, 'closing outbound client failed'));
    await handle.destroy().catch((err) => log.error({ err }, 'closing database pool failed'));
    await embedded?.stop().catch((err) => log.error({ err }, 'stopping embedded PostgreSQL failed'));
    log.info('stopped');
  }

  try {
    await migrateToLatest(handle.db);
    boss = await startBoss({ connectionString: dbUrl, log });
    services = await createServices({ config, db: handle.db, boss, log, databaseUrl: dbUrl });
    if (config.RUN_WORKER) {
      deliveryWorker = startDeliveryWorker({ ...services, connectionString: dbUrl });
      log.info(
        { concurrency: config.DELIVERY_CONCURRENCY, perDestination: config.DELIVERY_HOST_CONCURRENCY },
        'delivery worker started',
      );
      // With a browser subscribed, the push sealer's threads load now rather than in the first burst,
      // and prepare the browsers' keys.
      const browsers = await services.notificationServices.pushBrowsers(preparedBrowsersAtMost);
      if (browsers.length > 0) {
        void services.channels
          .startPushSealer(browsers)
          .catch((err) => log.error({ err }, 'starting the push sealer failed'));
      }
      engine = createEngineFromServices(services);
      await engine.start();
      await registerAutoArchive(boss, services);
    }
    // Every process, worker or not: what any writer leaves behind is pruned by any process.
    maintenanceAtStart = (await registerMaintenance(boss, services)).firstRun;
    let url: string | null = null;
    if (options.http !== false) {
      // Loaded only when serving: a worker process never pays for the HTTP stack's memory.
      const { buildApp } = await import('./http/app.ts');
      app = await buildApp(services, { clientDist: config.SERVE_CLIENT ? config.CLIENT_DIST : undefined });
      url = await app.listen({ port: config.PORT, host: config.HOST });
      log.info({ url }, 'listening');
    }
    return { config, log, services, engine, app, url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs until SIGTERM or SIGINT, then shuts down gracefully: exit 0, or 1 when forced. */
export function stopOnSignals(runtime: Runtime): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.log.info({ signal }, 'signal received');
    const force = setTimeout(() => process.exit(1), FORCED_EXIT_MS);
    force.unref();
    void runtime.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
