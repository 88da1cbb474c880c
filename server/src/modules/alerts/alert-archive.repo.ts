import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { polledStatusesSql } from '../../db/polled-statuses.ts';
import type { DB } from '../../db/types.ts';
import { isUuid } from '../../platform/ids.ts';

type Db = Database | Transaction<DB>;

/**
 * The archive is a status: ARCHIVED alerts are outside the engine's polled statuses and the active
 * lists. The trigger of migration 0010 records archived_at and the status to restore, and clears
 * the schedule, whoever writes the status.
 */
export async function archiveAlerts(db: Db, userId: string, ids: string[]): Promise<string[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const rows = await db
    .updateTable('alerts')
    .set({ status: 'ARCHIVED' })
    .where('user_id', '=', userId)
    .where('id', 'in', valid)
    .where('status', '<>', 'ARCHIVED')
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Which of `ids` are archived alerts of `userId`; `lock` holds them for the caller's transaction. */
export async function findArchivedIds(
  db: Db,
  userId: string,
  ids: string[],
  options: { lock?: boolean } = {},
): Promise<string[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const query = db
    .selectFrom('alerts')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'ARCHIVED')
    .where('id', 'in', valid);
  const rows = await (options.lock ? query.forUpdate() : query).execute();
  return rows.map((r) => r.id);
}

/**
 * Archives BOOKED and PASSED alerts not updated since `cutoff`, at most `limit` per statement.
 * Idempotent: an archived alert is no longer BOOKED or PASSED, so a second run finds nothing.
 */
export async function archiveUnchangedSince(db: Db, cutoff: Date, limit: number): Promise<number> {
  const result = await sql`
    UPDATE alerts SET status = 'ARCHIVED'
    WHERE id IN (
      SELECT id FROM alerts
      WHERE status IN ('BOOKED', 'PASSED') AND updated_at < ${cutoff}
      ORDER BY updated_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Puts archived alerts back in the status they had. One that polls is due at once (`now`); the
 * 0006 trigger restarts its match state. The restore counts as a change, so the alert has another
 * AUTO_ARCHIVE_DAYS before the sweep can take it again.
 */
export async function restoreAlerts(db: Db, userId: string, ids: string[], now: Date): Promise<string[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const { rows } = await sql<{ id: string }>`
    UPDATE alerts
    SET status = coalesce(archived_from_status, 'INACTIVE'),
        next_due_at = CASE WHEN archived_from_status IN ${polledStatusesSql} THEN ${now}::timestamptz ELSE NULL END,
        claimed_until = NULL,
        updated_at = now()
    WHERE user_id = ${userId} AND status = 'ARCHIVED' AND id = ANY(${valid}::uuid[])
    RETURNING id`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * Deletes archived alerts for good: their notifications (and so their deliveries) first, then the
 * alerts (their poll runs, channel links and watchlist memberships go with them by cascade).
 */
export async function purgeAlerts(db: Db, userId: string, ids: string[]): Promise<string[]> {
  const run = async (trx: Transaction<DB>) => {
    const found = await findArchivedIds(trx, userId, ids, { lock: true });
    if (found.length === 0) return [];
    await trx.deleteFrom('notifications').where('alert_id', 'in', found).execute();
    await trx.deleteFrom('alerts').where('id', 'in', found).execute();
    return found;
  };
  return db.isTransaction ? run(db as Transaction<DB>) : db.transaction().execute(run);
}

export async function listArchived(db: Db, userId: string, offset: number, limit: number) {
  const [items, total] = await Promise.all([
    db
      .selectFrom('alerts as r')
      .innerJoin('templates as t', 't.id', 'r.template_id')
      .select([
        'r.id',
        'r.title',
        't.name as template_name',
        'r.party_name',
        'r.tags',
        'r.archived_from_status',
        'r.archived_at',
        'r.updated_at',
      ])
      .where('r.user_id', '=', userId)
      .where('r.status', '=', 'ARCHIVED')
      .orderBy('r.archived_at', 'desc')
      .orderBy('r.id')
      .offset(offset)
      .limit(limit)
      .execute(),
    db
      .selectFrom('alerts')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'ARCHIVED')
      .executeTakeFirstOrThrow(),
  ]);
  return { items, total: total.n };
}
