/** Helpers shared by the benchmarks: databases, child processes, process figures, percentiles, tables. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../server/src/db/embedded.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A PostgreSQL server to benchmark on: DATABASE_URL, else an embedded one under .data/bench. */
export async function benchServer(
  settings?: Record<string, string>,
): Promise<{ adminUrl: string; embedded: EmbeddedDatabase | null }> {
  if (process.env.DATABASE_URL) return { adminUrl: process.env.DATABASE_URL, embedded: null };
  const embedded = await startEmbeddedPostgres({
    dataDir: path.join(repoRoot, '.data/bench'),
    port: Number(process.env.BENCH_PG_PORT ?? 54339),
    database: 'postgres',
    settings,
  });
  return { adminUrl: embedded.url, embedded };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * `npm run worker` exactly as package.json defines it (`exec node <flags> server/src/worker.ts`),
 * as Node arguments, so the benchmark measures the worker an operator runs.
 */
export function workerNodeArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = pkg.scripts.worker!.split(/\s+/).filter((w) => w !== 'exec');
  if (words[0] !== 'node') throw new Error(`unexpected worker script: ${pkg.scripts.worker}`);
  return words.slice(1);
}

/** Starts a Node child (the repository's Node) and resolves with it and its first stdout line. */
export async function startChild(
  script: string | string[],
  args: string[],
  env: Record<string, string>,
  options: { waitForLine?: boolean } = {},
): Promise<{ child: ChildProcess; firstLine: string | null }> {
  const nodeArgs = Array.isArray(script) ? script : [script];
  const label = path.basename(nodeArgs.at(-1)!);
  const child = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  let firstLine: string | null = null;
  if (options.waitForLine) {
    firstLine = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
    });
  }
  lines.on('line', (line) => {
    if (process.env.BENCH_VERBOSE) console.error(`[${label}] ${line}`);
  });
  return { child, firstLine };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

const CLOCK_TICKS = 100;

/** CPU seconds a process has used so far (user + system), from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Resident memory now and its peak since start (VmRSS, VmHWM), in MB. */
export function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function printTable(title: string, rows: [string, string | number | null][]): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(`\n${title}`);
  console.log('-'.repeat(width + 20));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v ?? 'n/a'}`);
  console.log('-'.repeat(width + 20));
}

export const round = (n: number | null, digits = 1): number | null =>
  n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits;

/** `--env KEY=VALUE` options as an environment (the value may itself contain "="). */
export function envPairs(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(pairs.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}

/**
 * The environment of a benchmark's worker process: production mode, loopback allowed, and one
 * loopback upstream standing in for many resort APIs (per-host limits lifted); every other setting
 * at its default unless the run's `--env` says otherwise.
 */
export function benchWorkerEnv(
  databaseUrl: string,
  overrides: Record<string, string>,
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    OUTBOUND_ALLOWLIST: '127.0.0.1',
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENGINE_HOST_CONCURRENCY: '2048',
    ENGINE_HOST_RATE_PER_SECOND: '1000000',
    ...overrides,
  };
}
