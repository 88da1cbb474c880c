import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './types.ts';

export type Database = Kysely<DB>;

// bigint counts (COUNT(*), bigserial) come back as JS numbers; our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  destroy(): Promise<void>;
}

/** Longest a statement may run; PostgreSQL cancels it after this, so no request holds a connection forever. */
const STATEMENT_TIMEOUT_MS = 30_000;

export function createDatabase(
  connectionString: string,
  options: { max?: number; statementTimeoutMs?: number } = {},
): DatabaseHandle {
  const statementTimeout = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    // Names the pool's backends in pg_stat_activity (an operator's view, the idle benchmark's table).
    application_name: 'resort-alerts',
    // A request never waits forever for a connection, even while PostgreSQL restarts.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    // The server cancels a runaway statement; the client gives up a little later on a server that
    // stopped answering altogether (a frozen host), where the server-side limit cannot fire.
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 5_000,
  });
  // An idle client losing its server (a PostgreSQL restart) must not crash the process.
  pool.on('error', () => {});
  // Nor a checked-out one: when PostgreSQL terminates connections (restart, failover) a client that is
  // between queries has no listener of the pool's and would throw. The query in flight, if any, fails
  // by itself; a client broken this way is discarded by the pool when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let destroyed = false;
  return {
    db,
    pool,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      await db.destroy();
    },
  };
}
