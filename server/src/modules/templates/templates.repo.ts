import {
  type EditableField,
  type HttpMethod,
  readTemplateStay,
  type Template,
  type WatchConfig,
  type WatchPresets,
} from '@resort/shared';
import { sql, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { DB, TemplateRow, TemplatesTable } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

/** A template row with its group's name and order (null without a group). */
export type TemplateRecord = Omit<TemplateRow, 'updated_at'> & {
  group_name: string | null;
  group_display_order: number | null;
};

/** The columns a write may set; JSON columns are passed already encoded (see `jsonb`). */
export type TemplateWrite = Omit<Updateable<TemplatesTable>, 'id' | 'created_at' | 'updated_at'>;

/**
 * JSON for a jsonb column. node-postgres would send a JS array as a PostgreSQL array literal, so
 * every JSON value is encoded here; null stays SQL NULL.
 */
export function jsonb(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function selectTemplates(db: Db) {
  return db
    .selectFrom('templates')
    .leftJoin('template_groups', 'template_groups.id', 'templates.template_group_id')
    .select([
      'templates.id',
      'templates.name',
      'templates.description',
      'templates.resort_code',
      'templates.template_group_id',
      'templates.target_url',
      'templates.method',
      'templates.polling_interval_seconds',
      'templates.default_headers',
      'templates.default_query',
      'templates.default_body',
      'templates.response_watch_config',
      'templates.response_watch_presets',
      'templates.editable_fields',
      'templates.stay',
      'templates.is_active',
      'templates.created_at',
      'template_groups.name as group_name',
      'template_groups.display_order as group_display_order',
    ]);
}

/** By name (case-insensitive), so the admin list and the alert form's picker read alike. */
export function listTemplates(db: Db, options: { activeOnly: boolean }): Promise<TemplateRecord[]> {
  let query = selectTemplates(db);
  if (options.activeOnly) query = query.where('templates.is_active', '=', true);
  return query.orderBy(sql`lower(templates.name)`).orderBy('templates.created_at').execute();
}

export function findTemplate(db: Db, id: string): Promise<TemplateRecord | undefined> {
  return selectTemplates(db).where('templates.id', '=', id).executeTakeFirst();
}

export async function insertTemplate(
  db: Db,
  values: TemplateWrite &
    Required<
      Pick<
        TemplateWrite,
        | 'name'
        | 'resort_code'
        | 'target_url'
        | 'method'
        | 'default_headers'
        | 'default_query'
        | 'editable_fields'
      >
    >,
): Promise<string> {
  const row = await db.insertInto('templates').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTemplate(db: Db, id: string, patch: TemplateWrite): Promise<boolean> {
  const result = await db
    .updateTable('templates')
    .set({ ...patch, updated_at: databaseNow })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteTemplate(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('templates').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The columns a poll reads of each template: its name for messages and its request. */
export function loadTemplatesForPolling(db: Db, ids: string[]) {
  return db
    .selectFrom('templates')
    .select([
      'id',
      'name',
      'target_url',
      'method',
      'default_headers',
      'default_query',
      'default_body',
      'editable_fields',
      'stay',
      'updated_at',
    ])
    .where('id', 'in', ids)
    .execute();
}

export async function templateGroupExists(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('template_groups').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** The answer shape of a template. Values were validated by the shared schema when written. */
export function toTemplate(row: TemplateRecord): Template {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    resortCode: row.resort_code,
    templateGroupId: row.template_group_id,
    templateGroup:
      row.template_group_id && row.group_name !== null
        ? { name: row.group_name, displayOrder: row.group_display_order ?? 0 }
        : null,
    targetUrl: row.target_url,
    method: row.method as HttpMethod,
    pollingIntervalSeconds: row.polling_interval_seconds,
    defaultHeaders: row.default_headers,
    defaultQuery: row.default_query,
    defaultBody: row.default_body,
    responseWatchConfig: (row.response_watch_config as WatchConfig | null) ?? null,
    responseWatchPresets: (row.response_watch_presets as WatchPresets | null) ?? null,
    isActive: row.is_active,
    editableFields: row.editable_fields as EditableField[],
    stay: readTemplateStay(row.stay),
    createdAt: row.created_at.toISOString(),
  };
}
