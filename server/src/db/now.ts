import { sql } from 'kysely';

/**
 * The database's clock, `now()`: the one source of every row's `created_at` (column defaults) and
 * `updated_at` (each update sets it from here), so rows written by any process compare on one clock,
 * the same one the engine's due times and heartbeats use (docs/decisions.md "[layers]").
 */
export const databaseNow = sql<Date>`now()`;
