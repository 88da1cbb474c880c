import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A worker process as `npm run worker` runs it (engine and delivery worker), on the given database. */
export function spawnWorkerProcess(databaseUrl: string): ChildProcess {
  return spawn(process.execPath, ['server/src/worker.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      DATABASE_URL: databaseUrl,
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
