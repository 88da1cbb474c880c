import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { type Runtime, startRuntime } from '../../src/runtime.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function processEnv(databaseUrl: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: databaseUrl,
    OUTBOUND_ALLOWLIST: '127.0.0.1',
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
    ...env,
  };
}

/**
 * A worker runtime in this process (engine, delivery worker and maintenance, no HTTP), as
 * `npm run worker` starts one, on the given database; the caller stops it.
 */
export function startWorkerRuntime(databaseUrl: string, env: Record<string, string> = {}): Promise<Runtime> {
  return startRuntime(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATABASE_URL: databaseUrl,
      RUN_WORKER: 'true',
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
      ...env,
    }),
    { http: false },
  );
}

/** A worker process as `npm run worker` runs it (engine and delivery worker), on the given database. */
export function spawnWorkerProcess(databaseUrl: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['server/src/worker.ts'], {
    cwd: repoRoot,
    env: processEnv(databaseUrl, env),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * An app process as `npm start` runs it (HTTP, engine and delivery worker; no SPA) on a free
 * loopback port; `url` resolves with its address once it listens (read from its log).
 */
export function spawnAppProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: repoRoot,
    env: processEnv(databaseUrl, {
      LOG_LEVEL: 'info',
      SERVE_CLIENT: 'false',
      HOST: '127.0.0.1',
      PORT: '0',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = new Promise<string>((resolve, reject) => {
    // Every line is read, so the process never blocks on a full pipe.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url) resolve(entry.url);
      } catch {
        // Not a log line.
      }
    });
    void once(child, 'exit').then(([code]) =>
      reject(new Error(`the app process exited (${code}) before listening`)),
    );
  });
  return { child, url };
}

/** The exit code of a process (null when a signal ended it), once it has exited. */
export async function exitCodeOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const [code] = (await once(child, 'exit')) as [number | null];
  return code;
}
