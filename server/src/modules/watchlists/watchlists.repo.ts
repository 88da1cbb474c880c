import { type Insertable, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { AlertRecord, DB, WatchlistsTable } from '../../db/types.ts';
import { isUuid } from '../../platform/ids.ts';

type Db = Database | Transaction<DB>;

/** A watchlist row (its owner aside) with its members and their figures. */
export type WatchlistView = Omit<Selectable<WatchlistsTable>, 'user_id'> & {
  alert_ids: string[];
  alert_count: number;
  available_count: number;
  last_notified_at: AlertRecord['last_notified_at'];
};

/**
 * A user's watchlists with their members and stats, computed from the member alerts in one
 * statement. Archived members stay members (a restore brings them back) but are not counted.
 */
export async function listWatchlists(db: Db, userId: string, id?: string): Promise<WatchlistView[]> {
  if (id !== undefined && !isUuid(id)) return [];
  const byId = id === undefined ? sql`` : sql`AND w.id = ${id}`;
  const { rows } = await sql<WatchlistView>`
    SELECT w.id, w.name, w.resort_code, w.quarter, w.notes, w.created_at, w.updated_at,
      coalesce(array_agg(r.id ORDER BY r.created_at DESC, r.id) FILTER (WHERE r.id IS NOT NULL), '{}')
        AS alert_ids,
      count(r.id)::int AS alert_count,
      count(r.id) FILTER (WHERE r.status = 'FIRING')::int AS available_count,
      max(r.last_notified_at) AS last_notified_at
    FROM watchlists w
    LEFT JOIN watchlist_alerts wa ON wa.watchlist_id = w.id
    LEFT JOIN alerts r ON r.id = wa.alert_id AND r.status <> 'ARCHIVED'
    WHERE w.user_id = ${userId} ${byId}
    GROUP BY w.id
    ORDER BY w.created_at, w.id`.execute(db);
  return rows;
}

export function insertWatchlist(db: Db, values: Insertable<WatchlistsTable>): Promise<{ id: string }> {
  return db.insertInto('watchlists').values(values).returning('id').executeTakeFirstOrThrow();
}

/** Updates one of `userId`'s watchlists; false when it is missing or someone else's. */
export async function updateWatchlist(
  db: Db,
  userId: string,
  id: string,
  patch: Updateable<WatchlistsTable>,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db
    .updateTable('watchlists')
    .set({ ...patch, updated_at: databaseNow })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the watchlist and its memberships; the alerts stay. */
export async function deleteWatchlist(db: Db, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await db
    .deleteFrom('watchlists')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function watchlistExists(db: Db, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const row = await db
    .selectFrom('watchlists')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function addMembers(db: Db, watchlistId: string, alertIds: string[]): Promise<void> {
  if (alertIds.length === 0) return;
  await db
    .insertInto('watchlist_alerts')
    .values(alertIds.map((alert_id) => ({ watchlist_id: watchlistId, alert_id })))
    .onConflict((oc) => oc.columns(['watchlist_id', 'alert_id']).doNothing())
    .execute();
}

export async function removeMember(db: Db, watchlistId: string, alertId: string): Promise<boolean> {
  if (!isUuid(alertId)) return false;
  const result = await db
    .deleteFrom('watchlist_alerts')
    .where('watchlist_id', '=', watchlistId)
    .where('alert_id', '=', alertId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A watchlist names one of the templates' resort codes: the template's spelling of `code`, if any. */
export async function findResortCode(db: Db, code: string): Promise<string | null> {
  const row = await db
    .selectFrom('templates')
    .select('resort_code')
    .where(sql<string>`lower(resort_code)`, '=', code.toLowerCase())
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.resort_code ?? null;
}
