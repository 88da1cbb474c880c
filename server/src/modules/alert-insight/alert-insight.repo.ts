import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';

type Db = Database | Transaction<DB>;

/**
 * The alert page's reads (a read model over poll_runs, alert_answers and the alert's
 * notifications). Each is one statement; poll_runs (a view, migration 0026) reads the alert's
 * blocks by poll_blocks_alert_idx and the records its row still holds; docs/performance.md has the
 * figures.
 */

/** The first poll kept within the window (the timeline starts there, not at an empty window). */
export async function firstPollSince(db: Db, alertId: string, since: Date): Promise<Date | null> {
  const row = await db
    .selectFrom('poll_runs')
    .select('created_at')
    .where('alert_id', '=', alertId)
    .where('created_at', '>=', since)
    // The first poll since `since` is no newer than the block ending first after it, so it is in a
    // block that began by then (or on the alert row): the other blocks are not read.
    .where('block_last_at', '>=', since)
    .where(
      'block_first_at',
      '<=',
      sql<Date>`coalesce((SELECT min(last_at) FROM poll_blocks WHERE alert_id = ${alertId}
                          AND last_at >= ${since}), 'infinity')`,
    )
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

interface BucketRow {
  at: Date;
  matched: number;
  not_matched: number;
  errors: number;
  causes: string[] | null;
  min_value: number | null;
  max_value: number | null;
}

/** Polls per time bucket since `from`: counts by outcome and the watched value's range. */
export async function timelineBuckets(
  db: Db,
  alertId: string,
  from: Date,
  bucketSeconds: number,
): Promise<BucketRow[]> {
  const { rows } = await sql<BucketRow>`
    SELECT to_timestamp(floor(extract(epoch FROM created_at) / ${bucketSeconds}) * ${bucketSeconds}) AS at,
           count(*) FILTER (WHERE ok AND matched)::int AS matched,
           count(*) FILTER (WHERE ok AND NOT coalesce(matched, false))::int AS not_matched,
           count(*) FILTER (WHERE NOT ok)::int AS errors,
           array_agg(DISTINCT poll_class) FILTER (WHERE poll_class NOT IN ('matched', 'not_matched'))
             AS causes,
           min(watched_value) AS min_value,
           max(watched_value) AS max_value
    FROM poll_runs
    WHERE alert_id = ${alertId} AND created_at >= ${from} AND block_last_at >= ${from}
    GROUP BY 1 ORDER BY 1`.execute(db);
  return rows;
}

/** The newest polls, with the proxy each went through. */
export function latestPolls(db: Db, alertId: string, limit: number) {
  return (
    db
      .selectFrom('poll_runs as p')
      .leftJoin('proxies as x', 'x.id', 'p.proxy_id')
      .select([
        'p.id',
        'p.started_at',
        'p.due_at',
        'p.ok',
        'p.matched',
        'p.duration_ms',
        'p.lateness_ms',
        'p.status_code',
        'p.notified',
        'p.error',
        'p.watched_value',
        'p.poll_class',
        'p.proxy_id',
        'x.host as proxy_host',
        'x.port as proxy_port',
      ])
      .where('p.alert_id', '=', alertId)
      // Each block holds a poll as new as its last_at, so the newest `limit` polls are in the newest
      // `limit` blocks and the alert row: older blocks are not read.
      .where(
        'p.block_last_at',
        '>=',
        sql<Date>`coalesce((SELECT last_at FROM poll_blocks WHERE alert_id = ${alertId}
                          ORDER BY last_at DESC OFFSET ${limit - 1} LIMIT 1), '-infinity')`,
      )
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(limit)
      .execute()
  );
}

export function findLastAnswer(db: Db, alertId: string) {
  return db
    .selectFrom('alert_answers')
    .select(['answer', 'answer_bytes', 'previous_values', 'status_code', 'received_at'])
    .where('alert_id', '=', alertId)
    .executeTakeFirst();
}

/** The alert's newest notifications, each with its deliveries and their channels. */
export async function latestNotifications(db: Db, alertId: string, limit: number) {
  const notifications = await db
    .selectFrom('notifications')
    .select(['id', 'kind', 'message', 'created_at'])
    .where('alert_id', '=', alertId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  if (notifications.length === 0) return [];
  const deliveries = await db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notification_services as s', 's.id', 'd.notification_service_id')
    .select([
      'd.id',
      'd.notification_id',
      'd.status',
      'd.attempts',
      'd.error',
      'd.dispatched_at',
      's.type',
      's.label',
    ])
    .where(
      'd.notification_id',
      'in',
      notifications.map((n) => n.id),
    )
    .orderBy('d.created_at')
    .execute();
  return notifications.map((n) => ({
    ...n,
    deliveries: deliveries.filter((d) => d.notification_id === n.id),
  }));
}
