import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { DB, TemplateGroupRow } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

const columns = ['id', 'name', 'description', 'display_order', 'created_at'] as const;

export type TemplateGroupRecord = Pick<TemplateGroupRow, (typeof columns)[number]>;

/** Ordered by display order, then name (case-insensitive), as the editor's picker shows them. */
export function listTemplateGroups(db: Db): Promise<TemplateGroupRecord[]> {
  return db
    .selectFrom('template_groups')
    .select(columns)
    .orderBy('display_order')
    .orderBy(sql`lower(name)`)
    .orderBy('name')
    .execute();
}

export function findTemplateGroup(db: Db, id: string): Promise<TemplateGroupRecord | undefined> {
  return db.selectFrom('template_groups').select(columns).where('id', '=', id).executeTakeFirst();
}

export function insertTemplateGroup(
  db: Db,
  group: { name: string; description: string | null; display_order: number },
): Promise<TemplateGroupRecord> {
  return db.insertInto('template_groups').values(group).returning(columns).executeTakeFirstOrThrow();
}

export function updateTemplateGroup(
  db: Db,
  id: string,
  patch: { name?: string; description?: string | null; display_order?: number },
): Promise<TemplateGroupRecord | undefined> {
  return db
    .updateTable('template_groups')
    .set({ ...patch, updated_at: databaseNow })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
}

export async function deleteTemplateGroup(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('template_groups').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
