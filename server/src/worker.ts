/**
 * `npm run worker`: a worker process without HTTP. Any number may run, on any machines sharing the
 * database; pg-boss and the alert claims keep them from doing the same work twice.
 */
import { ConfigError, loadConfig } from './config.ts';
import { startRuntime, stopOnSignals } from './runtime.ts';

try {
  const config = loadConfig();
  const runtime = await startRuntime({ ...config, RUN_WORKER: true }, { http: false });
  runtime.log.info('worker started');
  stopOnSignals(runtime);
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `Worker start-up failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
