/** `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
import { ConfigError, loadConfig } from '../server/src/config.ts';
import { migrateToLatest } from '../server/src/db/migrator.ts';
import { createLogger } from '../server/src/platform/logger.ts';
import { openDatabase } from '../server/src/runtime.ts';

try {
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const { handle, embedded } = await openDatabase(config, log);
  try {
    const result = await migrateToLatest(handle.db);
    const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await handle.destroy();
    await embedded?.stop();
  }
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
