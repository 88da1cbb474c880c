import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startSimulator } from '../scripts/simulator.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../server/src/db/embedded.ts';
import { startMailSink } from './helpers/mail-sink.ts';
import { startReceiver } from './helpers/receiver.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    receiverUrl: string;
    simulatorUrl: string;
    /** The mail sink's HTTP side: every e-mail the app sent (helpers/mail-sink.ts). */
    mailUrl: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A fresh database: a new one on DATABASE_URL's server, else a new embedded cluster. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL;
  if (admin) {
    const name = `resort_e2e_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE "${name}"`);
    await c.end();
    const u = new URL(admin);
    u.pathname = `/${name}`;
    return {
      url: u.toString(),
      async drop() {
        const d = new pg.Client({ connectionString: admin });
        await d.connect();
        await d.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await d.end();
      },
    };
  }
  const dataDir = path.join(root, '.data/e2e');
  await rm(dataDir, { recursive: true, force: true });
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres({ dataDir, port: await freePort() });
  return { url: embedded.url, drop: () => embedded.stop() };
}

async function waitForHealth(url: string, app: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the app exited early:\n${output()}`);
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the app did not become healthy:\n${output()}`);
}

export default async function setup(project: TestProject) {
  // Everything started so far, stopped in reverse order at teardown or when start-up fails.
  const stops: (() => Promise<unknown>)[] = [];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    // The screenshots left behind are this run's only.
    await rm(path.join(root, 'test-results/e2e'), { recursive: true, force: true });
    const database = await freshDatabase();
    stops.push(() => database.drop());
    const simulator = await startSimulator({ port: 0, seed: 7 });
    stops.push(() => simulator.close());
    const receiver = await startReceiver();
    stops.push(() => receiver.close());
    const mailSink = await startMailSink();
    stops.push(() => mailSink.close());
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    let output = '';
    const app = spawn(process.execPath, ['scripts/start.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        OUTBOUND_ALLOWLIST: '127.0.0.1',
        COOKIE_SECURE: 'false',
        LOG_LEVEL: 'warn',
        SERVE_CLIENT: 'true',
        // E-mail goes to the loopback sink; links in it (password reset, invitations) point here.
        SMTP_URL: mailSink.smtpUrl,
        PUBLIC_URL: baseUrl,
        // Every journey registers its accounts from this one address: more than an hour's default.
        REGISTRATIONS_PER_ADDRESS_PER_HOUR: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => app.once('exit', resolve));
    stops.push(async () => {
      if (app.exitCode === null && app.signalCode === null) app.kill('SIGTERM');
      await exited;
    });
    const keep = (d: Buffer) => {
      output = (output + d.toString()).slice(-20_000);
    };
    app.stdout?.on('data', keep);
    app.stderr?.on('data', keep);
    await waitForHealth(baseUrl, app, () => output);

    project.provide('baseUrl', baseUrl);
    project.provide('databaseUrl', database.url);
    project.provide('receiverUrl', receiver.url);
    project.provide('simulatorUrl', simulator.url);
    project.provide('mailUrl', mailSink.url);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
