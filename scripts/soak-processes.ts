/**
 * The soak's processes (scripts/soak.ts): the app (`npm start`'s runtime: HTTP and its in-process
 * worker) and one extra `npm run worker`, each logging to its own file; the extra worker is killed
 * (SIGKILL) and gracefully restarted (SIGTERM) on a schedule.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot, stopChild, workerNodeArgs } from './bench-lib.ts';

/** Within each five minutes of the run: the SIGKILL at 1:00, the graceful restart at 2:30. */
const PERIOD_MS = 300_000;
const KILL_AT_MS = 60_000;
const RESTART_AT_MS = 150_000;
/** How long a killed worker stays down before it is started again. */
const DOWN_MS = 2_000;

export interface ProcessEvent {
  at: number;
  what: string;
}

/** A Node child of the soak with its stdout and stderr appended to `logPath`. */
export function spawnLogged(nodeArgs: string[], env: Record<string, string>, logPath: string): ChildProcess {
  const fd = openSync(logPath, 'a');
  try {
    return spawn(process.execPath, nodeArgs, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
}

/** A loopback port free right now, for the app to listen on. */
export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once the app answers `/api/health` (any status); throws if it exits or takes too long. */
export async function waitForApp(app: ChildProcess, appUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null || app.signalCode !== null) throw new Error('the app exited during start-up');
    try {
      await fetch(`${appUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await sleep(250);
    }
  }
  throw new Error(`the app did not answer within ${timeoutMs / 1000} s`);
}

/** Log lines per pino level name (warn, error, fatal) in one process's log. */
export function logLevels(logPath: string): Record<string, number> {
  const names: Record<string, string> = { '40': 'warn', '50': 'error', '60': 'fatal' };
  const counts: Record<string, number> = { warn: 0, error: 0, fatal: 0 };
  for (const match of readFileSync(logPath, 'utf8').matchAll(/"level":(\d+)/g)) {
    const name = names[match[1]!];
    if (name) counts[name]!++;
  }
  return counts;
}

/** The extra worker: started, killed and restarted on the schedule, started again if it dies. */
export class ExtraWorker {
  child: ChildProcess | null = null;
  readonly events: ProcessEvent[] = [];
  /** When each SIGKILL was sent: deliveries in flight then may arrive twice. */
  readonly kills: number[] = [];
  private readonly env: Record<string, string>;
  private readonly logPath: string;
  private planned = false;
  private stopped = false;

  constructor(env: Record<string, string>, logPath: string) {
    this.env = env;
    this.logPath = logPath;
  }

  start(): void {
    const child = spawnLogged(workerNodeArgs(), this.env, this.logPath);
    this.child = child;
    child.once('exit', (code, signal) => {
      if (this.planned || this.stopped) return;
      this.note(`extra worker died on its own (${signal ?? `exit ${code}`}); starting it again`);
      setTimeout(() => this.stopped || this.start(), DOWN_MS);
    });
  }

  private note(what: string, at = Date.now()): void {
    this.events.push({ at, what });
  }

  private running(): ChildProcess | null {
    const child = this.child;
    return child && child.exitCode === null && child.signalCode === null ? child : null;
  }

  async kill(): Promise<void> {
    const child = this.running();
    if (!child) return;
    this.planned = true;
    const exited = once(child, 'exit');
    this.kills.push(Date.now());
    child.kill('SIGKILL');
    await exited;
    this.note('extra worker killed (SIGKILL)', this.kills.at(-1));
    await sleep(DOWN_MS);
    this.planned = false;
    if (!this.stopped) this.start();
  }

  async restartGracefully(): Promise<void> {
    const child = this.running();
    if (!child) return;
    this.planned = true;
    const begun = Date.now();
    await stopChild(child);
    const how = child.signalCode === 'SIGKILL' ? 'did not stop: killed after 15 s' : `exit ${child.exitCode}`;
    this.note(
      `extra worker stopped (SIGTERM): ${how}, in ${((Date.now() - begun) / 1000).toFixed(1)} s`,
      begun,
    );
    this.planned = false;
    if (!this.stopped) this.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.child) await stopChild(this.child);
  }

  /** Runs the kills and graceful restarts due between `from` and `until` (epoch ms), or until `signal`. */
  async runSchedule(from: number, until: number, signal: AbortSignal): Promise<void> {
    const plan: { at: number; act: () => Promise<void> }[] = [];
    for (let p = from; p < until; p += PERIOD_MS) {
      plan.push({ at: p + KILL_AT_MS, act: () => this.kill() });
      plan.push({ at: p + RESTART_AT_MS, act: () => this.restartGracefully() });
    }
    for (const step of plan.filter((s) => s.at < until)) {
      const wait = step.at - Date.now();
      if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => {});
      if (signal.aborted) return;
      await step.act();
    }
  }
}
