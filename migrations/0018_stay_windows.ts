import type { Kysely } from 'kysely';

/**
 * Stay windows (docs/product.md, "Stay windows"):
 * - `templates.stay`: which editable fields carry the stay (check-in, and check-out or nights), a
 *   booking link with placeholders and, where one answer lists availability per night, how to read it.
 * - `alerts.stay_window`: the windows an alert watches instead of fixed dates (null: fixed dates).
 * Both are JSON validated by the shared schemas on write; existing rows keep null and work unchanged.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('templates').addColumn('stay', 'jsonb').execute();
  await db.schema.alterTable('alerts').addColumn('stay_window', 'jsonb').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: migrations are untyped by design
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').dropColumn('stay_window').execute();
  await db.schema.alterTable('templates').dropColumn('stay').execute();
}
