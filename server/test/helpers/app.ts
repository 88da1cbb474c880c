import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { type Config, loadConfig } from '../../src/config.ts';
import { createDatabase, type Database } from '../../src/db/database.ts';
import { buildApp } from '../../src/http/app.ts';
import { startBoss } from '../../src/jobs/boss.ts';
import { type DeliveryWorker, startDeliveryWorker } from '../../src/modules/notifications/delivery-worker.ts';
import { createServices, type Services } from '../../src/modules/services.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { checkAnswerAgainstDocument } from './contract.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  db: Database;
  config: Config;
  database: TestDatabase;
  boss: PgBoss | null;
  /** This process's delivery worker, when asked for (`deliveries: true`). */
  deliveryWorker: DeliveryWorker | null;
  /** The listening base URL when `listen` was asked for, e.g. http://127.0.0.1:41234. */
  baseUrl: string | null;
  /**
   * `app.inject` with a JSON body and an optional bearer token. A REST answer that the OpenAPI
   * document does not describe (status or body) fails the test (helpers/contract.ts).
   */
  request(options: {
    method: InjectOptions['method'];
    url: string;
    token?: string | undefined;
    body?: unknown;
    headers?: Record<string, string>;
  }): Promise<LightMyRequestResponse & { json<T = unknown>(): T }>;
  close(): Promise<void>;
}

/**
 * The real app on a fresh database of its own: real PostgreSQL, real pg-boss when asked,
 * configuration from an environment the test chooses (never test-only branches in src/).
 */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    boss?: boolean;
    /** Run a delivery worker, as a worker process does. */
    deliveries?: boolean;
    listen?: boolean;
    clock?: Clock;
    /** A built SPA to serve, as `npm start` does. */
    clientDist?: string;
    /** Another app's database, for two app processes on one database (the first app drops it). */
    database?: TestDatabase;
    /** Where log lines go (JSON, one a line), for tests that read them. */
    logDestination?: { write(line: string): void };
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: database.url,
    SERVE_CLIENT: 'false',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    ...options.env,
  });
  const log = createLogger(
    config.LOG_LEVEL,
    options.logDestination ? { destination: options.logDestination } : {},
  );
  const handle = createDatabase(database.url, { max: 5 });
  const boss = options.boss
    ? await startBoss({ connectionString: database.url, supervise: false, log })
    : null;
  const services = await createServices({
    config,
    db: handle.db,
    boss,
    log,
    databaseUrl: database.url,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const deliveryWorker = options.deliveries
    ? startDeliveryWorker({ ...services, connectionString: database.url })
    : null;
  const app = await buildApp(services, { clientDist: options.clientDist });
  let baseUrl: string | null = null;
  if (options.listen) baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  else await app.ready();

  return {
    app,
    services,
    db: handle.db,
    config,
    database,
    boss,
    deliveryWorker,
    baseUrl,
    async request({ method, url, token, body, headers }) {
      const h: Record<string, string> = { ...headers };
      if (token) h.authorization = `Bearer ${token}`;
      const res = await app.inject({
        method,
        url,
        headers: h,
        ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
      });
      // Every REST answer a test sees must be one the OpenAPI document describes.
      checkAnswerAgainstDocument(String(method), url, res);
      return res as LightMyRequestResponse & { json<T = unknown>(): T };
    },
    async close() {
      await app.close();
      await deliveryWorker?.stop();
      await boss?.stop({ graceful: false, timeout: 2000 });
      await services.channels.close();
      await services.outbound.close();
      await handle.destroy();
      if (!options.database) await database.drop();
    },
  };
}
