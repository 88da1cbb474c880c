import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

export interface StoredEvent {
  id: string;
  user_id: string;
  alert_id: string | null;
  kind: string;
  payload: Record<string, unknown>;
}

/** Events after `afterId`, oldest first: one user's, or everyone's (`userId` null, admin views). */
export function eventsAfter(
  db: Db,
  userId: string | null,
  afterId: string,
  limit: number,
): Promise<StoredEvent[]> {
  let query = db
    .selectFrom('live_events')
    .select(['id', 'user_id', 'alert_id', 'kind', 'payload'])
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit);
  if (userId !== null) query = query.where('user_id', '=', userId);
  return query.execute().then((rows) => rows.map((r) => ({ ...r, id: String(r.id) })));
}

/** The newest event id (a new subscription resumes from here, not from the start of the log). */
export async function latestEventId(db: Db): Promise<string> {
  const row = await db
    .selectFrom('live_events')
    .select(sql<string | null>`max(id)::text`.as('id'))
    .executeTakeFirst();
  return row?.id ?? '0';
}

/** Deletes the events older than `keepHours`; answers how many. */
export async function pruneEvents(db: Db, keepHours: number): Promise<number> {
  const result = await db
    .deleteFrom('live_events')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${keepHours})`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
