import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
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

/**
 * Starts a statement that is prepared once per connection (a named statement, by its text's digest)
 * instead of being sent, parsed and planned at every run: the engine's hot statements, whose text is
 * long and whose plan does not depend on the values. Not for a statement whose best plan depends on
 * its values (a generic plan would serve every run).
 */
export const prepared = sql.raw('/* prepared */');
const PREPARED_MARK = '/* prepared */';

/** The pool as Kysely sees it: a statement marked `prepared` runs as a named statement. */
function preparingPool(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      name = `s${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const query = (text: unknown, values?: ReadonlyArray<unknown>) =>
        typeof text === 'string' && text.startsWith(PREPARED_MARK)
          ? client.query({ name: nameOf(text), text, values: values ? [...values] : [] })
          : client.query(text as string, values ? [...values] : undefined);
      return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
    },
    end: () => pool.end(),
  };
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
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
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
