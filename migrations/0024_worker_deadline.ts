import { type Kysely, sql } from 'kysely';

/**
 * Each worker's own deadline (docs/decisions.md, "A worker announces its own deadline"): every beat
 * sets `live_until`, and a worker is live until then, not until a timeout every reader assumes. A
 * worker with no alert to poll announces a long one and beats rarely; one that polls announces
 * ENGINE_WORKER_TIMEOUT_SECONDS and beats every second.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE engine_workers ADD COLUMN live_until timestamptz NOT NULL DEFAULT now() + interval '5 seconds'`.execute(
    db,
  );
  await sql`UPDATE engine_workers SET live_until = heartbeat_at + interval '5 seconds'`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE engine_workers DROP COLUMN IF EXISTS live_until`.execute(db);
}
