import { type Kysely, sql } from 'kysely';

/**
 * `notifications.kind` says what the engine said: until now every notification was written with the
 * column's default, MATCH, and a RESOLVED one ("no longer matches") carried its kind only in
 * `metadata.kind`. Existing rows take the kind their metadata names; new ones are written with it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await sql`UPDATE notifications SET kind = 'RESOLVED'
    WHERE kind <> 'RESOLVED' AND metadata->>'kind' = 'RESOLVED'`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(_db: Kysely<any>): Promise<void> {
  // Nothing to undo: the column and its default are 0001's, and RESOLVED is a kind it allows.
}
