import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbStats } from '../../../scripts/bench-engine-setup.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let database: TestDatabase;
let reader: pg.Client;
let app: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  reader = new pg.Client({ connectionString: database.url });
  app = new pg.Client({ connectionString: database.url });
  await Promise.all([reader.connect(), app.connect()]);
});

afterAll(async () => {
  await Promise.all([reader?.end(), app?.end()]);
  await database?.drop();
});

/**
 * The engine and delivery benchmarks read the database's figures once a second over a connection to the
 * benchmark database itself: the backends whose CPU they add up as the database's are the app's, not the
 * one answering that reading.
 */
describe("the benchmarks' database figures", () => {
  it("count the app's backends and leave out the benchmark's own", async () => {
    const pidOf = async (client: pg.Client) =>
      (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const [own, other] = await Promise.all([pidOf(reader), pidOf(app)]);

    const { pids } = await dbStats(reader, database.name);

    expect(pids).toContain(other);
    expect(pids).not.toContain(own);
  });
});
