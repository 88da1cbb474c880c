import { type Kysely, sql } from 'kysely';

/**
 * A worker's database session (docs/decisions.md, "A dead worker is noticed by its session"): each
 * engine worker holds one connection of its own and records that backend's pid and start time. A
 * peer that finds no such backend in `pg_stat_activity` knows the worker is gone (a killed process's
 * sockets close at once) and releases its claims then, not when its heartbeat times out. Both null
 * for a worker that has no session (as before): only its heartbeat tells.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE engine_workers ADD COLUMN session_pid integer, ADD COLUMN session_started timestamptz`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE engine_workers DROP COLUMN IF EXISTS session_pid, DROP COLUMN IF EXISTS session_started`.execute(
    db,
  );
}
