import type {
  DeliveryFigures,
  DispatchStatus,
  NotificationRecord,
  NotificationServiceType,
} from '@resort/shared';
import { sql, type Transaction } from 'kysely';
import { type Database, prepared } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';
import { storableJson, storableText } from '../../platform/storable.ts';
import type { StampedNotification } from './new-notification.ts';

type Db = Database | Transaction<DB>;

/** The delivery workers LISTEN on: a committed new delivery wakes them at once. */
export const DELIVERY_CHANNEL = 'notification_deliveries';

/**
 * In one statement: inserts the notifications whose event keys are new, one PENDING delivery due now
 * per active service linked to each one's alert and owned by its owner (with its destination for the
 * delivery workers' per-destination caps, migrations/0007), and wakes the delivery workers when any delivery was
 * made (NOTIFY is sent at commit). Answers the notifications created (event key → id).
 */
export async function insertNotificationsWithDeliveries(
  db: Db,
  inputs: StampedNotification[],
  /** The app clock's now: what quiet hours are judged at (holds are kept in database time). */
  at: Date,
): Promise<Map<string, string>> {
  if (inputs.length === 0) return new Map();
  const values = JSON.stringify(
    inputs.map((i) => ({
      user_id: i.userId,
      alert_id: i.alertId,
      event_key: i.eventKey,
      kind: i.kind,
      // Messages and metadata quote upstream answers: one unstorable character would refuse the batch.
      message: storableText(i.message),
      metadata: storableJson(i.metadata),
    })),
  );
  const { rows } = await sql<{ id: string; event_key: string }>`${prepared}
    WITH created AS (
      INSERT INTO notifications (user_id, alert_id, event_key, kind, message, metadata)
      SELECT v.user_id, v.alert_id, v.event_key, v.kind, v.message, v.metadata
      FROM jsonb_to_recordset(${values}::jsonb)
        AS v(user_id uuid, alert_id uuid, event_key text, kind text, message text, metadata jsonb)
      ON CONFLICT (event_key) DO NOTHING
      RETURNING id, user_id, alert_id, event_key, metadata->'alertIds' AS grouped,
        coalesce((metadata->>'allChannels')::boolean, false) AS all_channels
    ),
    -- Each channel of the notification's alert, or of every alert a grouped notice names, or (a
    -- notice to all of its user's channels) every channel of its user, once.
    targets AS (
      SELECT DISTINCT n.id, n.user_id, n.alert_id, ans.notification_service_id AS service_id
      FROM created n
      CROSS JOIN LATERAL (
        SELECT n.alert_id AS alert_id
        UNION SELECT a::uuid FROM jsonb_array_elements_text(
          CASE WHEN jsonb_typeof(n.grouped) = 'array' THEN n.grouped ELSE '[]'::jsonb END) AS a
      ) linked
      JOIN alert_notification_services ans ON ans.alert_id = linked.alert_id
      UNION
      SELECT n.id, n.user_id, n.alert_id, s.id FROM created n JOIN notification_services s ON s.user_id = n.user_id
      WHERE n.all_channels
    ),
    candidates AS MATERIALIZED (
      SELECT gen_random_uuid() AS id, n.id AS notification_id, s.id AS service_id, n.user_id,
             delivery_destination(s.type, s.config) AS destination, s.created_at AS service_created_at,
             -- Inside the user's quiet hours (and on a channel they cover), a non-urgent delivery is held.
             CASE WHEN NOT coalesce(a.urgent, false) AND (q.service_ids IS NULL OR s.id = ANY(q.service_ids))
                  THEN quiet_window_end(q.enabled, q.start_time, q.end_time, q.time_zone, ${at.toISOString()}::timestamptz)
             END AS held_until
      FROM targets n
      JOIN notification_services s ON s.id = n.service_id
      -- A notice about no one alert (a template failing) has none: never urgent, never snoozed.
      LEFT JOIN alerts a ON a.id = n.alert_id
      LEFT JOIN quiet_hours q ON q.user_id = n.user_id
      WHERE s.user_id = n.user_id AND s.is_active
        -- A snoozed alert's notification is recorded, and sent nowhere.
        AND (a.snoozed_until IS NULL OR a.snoozed_until <= now())
    ),
    carriers AS (
      -- A delivery already held for the same service and window carries the new ones.
      SELECT DISTINCT ON (d.notification_service_id, d.held_until)
             d.notification_service_id AS service_id, d.held_until, d.id
      FROM notification_deliveries d
      JOIN (SELECT DISTINCT service_id, held_until FROM candidates WHERE held_until IS NOT NULL) c
        ON c.service_id = d.notification_service_id AND c.held_until = d.held_until
      WHERE d.status = 'PENDING' AND d.digest_of IS NULL
      ORDER BY d.notification_service_id, d.held_until, d.created_at, d.id
    ),
    placed AS (
      SELECT c.*,
             CASE WHEN c.held_until IS NULL THEN NULL
                  WHEN k.id IS NOT NULL THEN k.id
                  WHEN first_value(c.id) OVER w = c.id THEN NULL
                  ELSE first_value(c.id) OVER w END AS digest_of
      FROM candidates c
      LEFT JOIN carriers k ON k.service_id = c.service_id AND k.held_until = c.held_until
      WINDOW w AS (PARTITION BY c.service_id, c.held_until ORDER BY c.notification_id)
    ),
    deliveries AS (
      INSERT INTO notification_deliveries
        (id, notification_id, notification_service_id, user_id, status, destination, next_attempt_at,
         held_until, digest_of)
      SELECT id, notification_id, service_id, user_id, 'PENDING', destination,
             -- Held: due at the window's end (the carrier; a carried one is never claimed itself).
             CASE WHEN held_until IS NULL THEN now()
                  WHEN digest_of IS NULL THEN now() + (held_until - ${at.toISOString()}::timestamptz)
             END,
             held_until, digest_of
      FROM placed
      ORDER BY notification_id, service_created_at
      ON CONFLICT (notification_id, notification_service_id) DO NOTHING
      RETURNING id
    ),
    woken AS (
      SELECT pg_notify(${DELIVERY_CHANNEL}, '') FROM (SELECT 1 FROM deliveries LIMIT 1) AS any_delivery
    )
    SELECT id, event_key FROM created, (SELECT count(*) FROM woken) AS w`.execute(db);
  return new Map(rows.map((r) => [r.event_key, r.id]));
}

/** The id of the notification of an event key. */
export async function findNotificationId(db: Db, eventKey: string): Promise<string> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('event_key', '=', eventKey)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Everything one delivery attempt needs: the delivery, its claim, its notification, service and alert. */
export interface DeliveryForSend {
  id: string;
  attempts: number;
  destination: string;
  claimToken: string;
  serviceId: string;
  message: string;
  metadata: Record<string, unknown>;
  alertId: string | null;
  notificationCreatedAt: Date;
  type: string;
  label: string | null;
  config: unknown;
  signingSecret: string;
  serviceActive: boolean;
  templateId: string | null;
  title: string | null;
  partyName: string | null;
  urgent: boolean;
  /** Set when held for quiet hours: the window's end. */
  heldUntil: Date | null;
  /** The held deliveries this one carries as a digest (their messages and alert titles). */
  digest: { message: string; title: string | null }[];
}

const lease = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;

/** The claimed rows joined with what a send needs, in one statement with the claim itself. */
function claimAndRead(db: Db, picked: ReturnType<typeof sql>, token: string, leaseSeconds: number) {
  return sql<DeliveryForSend>`${prepared}
    WITH picked AS (${picked}),
    claimed AS (
      UPDATE notification_deliveries d
      SET claim_token = ${token}::uuid, claimed_until = ${lease(leaseSeconds)}
      FROM picked WHERE d.id = picked.id
      RETURNING d.id, d.attempts, d.destination, d.claim_token, d.notification_id, d.notification_service_id,
                d.held_until
    )
    SELECT c.id, c.attempts, c.destination, c.claim_token AS "claimToken",
           c.notification_service_id AS "serviceId", n.message, n.metadata,
           n.alert_id AS "alertId", n.created_at AS "notificationCreatedAt",
           s.type, s.label, s.config, s.signing_secret AS "signingSecret", s.is_active AS "serviceActive",
           r.template_id AS "templateId", r.title, r.party_name AS "partyName",
           coalesce(r.urgent, false) AS urgent, c.held_until AS "heldUntil",
           CASE WHEN c.held_until IS NULL THEN '[]'::json ELSE (
             SELECT coalesce(json_agg(json_build_object('message', n2.message, 'title', r2.title)
                                      ORDER BY n2.created_at, m.id), '[]'::json)
             FROM notification_deliveries m
             JOIN notifications n2 ON n2.id = m.notification_id
             LEFT JOIN alerts r2 ON r2.id = n2.alert_id
             WHERE m.digest_of = c.id) END AS digest
    FROM claimed c
    JOIN notifications n ON n.id = c.notification_id
    JOIN notification_services s ON s.id = c.notification_service_id
    LEFT JOIN alerts r ON r.id = n.alert_id`
    .execute(db)
    .then((r) => r.rows);
}

/**
 * Claims up to `limit` due deliveries no live claim holds, oldest due first, skipping rows another
 * delivery worker is claiming (SKIP LOCKED), the destinations this one has no room for or that
 * rest, and the services that rest.
 */
export function claimDueDeliveries(
  db: Db,
  options: {
    limit: number;
    token: string;
    leaseSeconds: number;
    skipDestinations: string[];
    skipServices: string[];
  },
): Promise<DeliveryForSend[]> {
  const picked = sql`
    SELECT id FROM notification_deliveries
    WHERE status = 'PENDING' AND next_attempt_at <= now()
      AND (claimed_until IS NULL OR claimed_until < now())
      AND destination <> ALL(${options.skipDestinations}::text[])
      AND notification_service_id <> ALL(${options.skipServices}::uuid[])
    ORDER BY next_attempt_at
    LIMIT ${options.limit}
    FOR UPDATE SKIP LOCKED`;
  return claimAndRead(db, picked, options.token, options.leaseSeconds);
}

/**
 * When an idle delivery worker next has something to claim: the soonest due delivery no live claim
 * holds, or the end of the lease of the first claimed one in due order (a killed worker's rows come
 * back then); null when nothing is pending. Two walks of deliveries_due_idx.
 */
export async function readNextDeliveryDue(db: Db): Promise<{ nextAt: Date | null; dbNow: Date }> {
  const { rows } = await sql<{ next_at: Date | null; db_now: Date }>`
    SELECT least(
      (SELECT next_attempt_at FROM notification_deliveries
       WHERE status = 'PENDING' AND (claimed_until IS NULL OR claimed_until < now())
       ORDER BY next_attempt_at LIMIT 1),
      (SELECT greatest(next_attempt_at, claimed_until) FROM notification_deliveries
       WHERE status = 'PENDING' AND claimed_until >= now()
       ORDER BY next_attempt_at LIMIT 1)) AS next_at,
      now() AS db_now`.execute(db);
  return { nextAt: rows[0]!.next_at, dbNow: rows[0]!.db_now };
}

/**
 * Claims one delivery for attempt `previousAttempts + 1` now, due or not and whoever held it (an
 * explicit send of that attempt); nothing when it is settled or that attempt is already recorded.
 */
export async function claimDelivery(
  db: Db,
  deliveryId: string,
  previousAttempts: number,
  token: string,
  leaseSeconds: number,
): Promise<DeliveryForSend | undefined> {
  const picked = sql`
    SELECT id FROM notification_deliveries
    WHERE id = ${deliveryId} AND status = 'PENDING' AND attempts = ${previousAttempts}
    FOR UPDATE`;
  return (await claimAndRead(db, picked, token, leaseSeconds))[0];
}

/** The outcome of one attempt, recorded only under the claim it was sent under. */
export interface AttemptOutcome {
  id: string;
  serviceId: string;
  claimToken: string;
  previousAttempts: number;
  status: DispatchStatus;
  attempts: number;
  error: string | null;
  /** Seconds from the record (database clock) to the next attempt; null when none follows. */
  retryInSeconds: number | null;
  delivered: boolean;
  /** It carried a digest: the deliveries it carried take its outcome once settled. */
  carriesDigest?: boolean;
}

/**
 * Records many outcomes in one statement. A row is written only if it is still PENDING with the
 * attempts the send saw and still held by the same claim: a delivery worker whose lease ran out and whose
 * row another one took records nothing, so each attempt is recorded exactly once. Answers the ids written.
 */
export async function recordOutcomes(db: Db, outcomes: AttemptOutcome[]): Promise<Set<string>> {
  if (outcomes.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`${prepared}
    UPDATE notification_deliveries d
    SET status = v.status, attempts = v.attempts, error = v.error,
        next_attempt_at = CASE WHEN v.retry IS NULL THEN NULL ELSE now() + make_interval(secs => v.retry) END,
        dispatched_at = CASE WHEN v.delivered THEN now() END,
        claim_token = NULL, claimed_until = NULL, updated_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(
      outcomes.map((o) => ({
        id: o.id,
        token: o.claimToken,
        prev: o.previousAttempts,
        status: o.status,
        attempts: o.attempts,
        error: o.error,
        retry: o.retryInSeconds,
        delivered: o.delivered,
      })),
    )}::jsonb) AS v(id uuid, token uuid, prev int, status text, attempts int, error text, retry float8, delivered boolean)
    WHERE d.id = v.id AND d.status = 'PENDING' AND d.attempts = v.prev AND d.claim_token = v.token
    RETURNING d.id`.execute(db);
  const recorded = new Set(rows.map((r) => r.id));
  const carriers = outcomes.filter((o) => o.carriesDigest && o.status !== 'PENDING' && recorded.has(o.id));
  if (carriers.length > 0)
    await settleCarried(
      db,
      carriers.map((o) => o.id),
    );
  return recorded;
}

/** The deliveries a settled digest carried take its outcome: sent (or failed) together. */
async function settleCarried(db: Db, carrierIds: string[]): Promise<void> {
  await sql`
    UPDATE notification_deliveries m
    SET status = c.status, attempts = c.attempts, error = c.error, dispatched_at = c.dispatched_at,
        updated_at = now()
    FROM notification_deliveries c
    WHERE m.digest_of = c.id AND c.id = ANY(${carrierIds}::uuid[]) AND m.status = 'PENDING'`.execute(db);
}

/** Extends the leases of rows this delivery worker still holds (by id: the primary key finds them). */
export async function renewLeases(
  db: Db,
  held: { id: string; claimToken: string }[],
  leaseSeconds: number,
): Promise<void> {
  if (held.length === 0) return;
  await sql`
    UPDATE notification_deliveries d SET claimed_until = ${lease(leaseSeconds)}
    FROM jsonb_to_recordset(${JSON.stringify(held.map((h) => ({ id: h.id, token: h.claimToken })))}::jsonb)
      AS v(id uuid, token uuid)
    WHERE d.id = v.id AND d.claim_token = v.token AND d.status = 'PENDING'`.execute(db);
}

/** Gives back claimed rows not sent (a delivery worker stopping): another one may take them at once. */
export async function releaseClaims(db: Db, held: { id: string; claimToken: string }[]): Promise<void> {
  if (held.length === 0) return;
  await sql`
    UPDATE notification_deliveries d SET claim_token = NULL, claimed_until = NULL
    FROM jsonb_to_recordset(${JSON.stringify(held.map((h) => ({ id: h.id, token: h.claimToken })))}::jsonb)
      AS v(id uuid, token uuid)
    WHERE d.id = v.id AND d.claim_token = v.token AND d.status = 'PENDING'`.execute(db);
}

/**
 * Deletes up to `limit` notifications older than `days`, oldest first, with their deliveries (ON
 * DELETE CASCADE), keeping each alert's latest notification whatever its age (the alert page shows
 * it) and any with a delivery still pending. Answers how many were deleted.
 */
export async function pruneNotifications(db: Db, days: number, limit: number): Promise<number> {
  const result = await sql`
    DELETE FROM notifications
    WHERE id IN (
      SELECT n.id FROM notifications n
      WHERE n.created_at < now() - make_interval(days => ${days})
        AND (n.alert_id IS NULL OR EXISTS (
          SELECT 1 FROM notifications newer
          WHERE newer.alert_id = n.alert_id AND (newer.created_at, newer.id) > (n.created_at, n.id)))
        AND NOT EXISTS (
          SELECT 1 FROM notification_deliveries d WHERE d.notification_id = n.id AND d.status = 'PENDING')
      ORDER BY n.created_at
      LIMIT ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The pool's delivery figures, read from the outbox (GET /api/health). */
export async function readDeliveryFigures(db: Db): Promise<DeliveryFigures> {
  const { rows } = await sql<{
    pending: number;
    due: number;
    oldest_due: number | null;
    oldest_pending: number | null;
    delivered: number;
  }>`
    SELECT count(*)::int AS pending,
           (count(*) FILTER (WHERE next_attempt_at <= now()))::int AS due,
           extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now()))::float8 AS oldest_due,
           extract(epoch FROM now() - min(created_at))::float8 AS oldest_pending,
           (SELECT count(*) FROM notification_deliveries
             WHERE dispatched_at > now() - interval '1 minute')::int AS delivered
    FROM notification_deliveries WHERE status = 'PENDING'`.execute(db);
  const r = rows[0]!;
  const seconds = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
  return {
    pending: r.pending,
    due: r.due,
    oldestDueSeconds: seconds(r.oldest_due),
    oldestPendingSeconds: seconds(r.oldest_pending),
    lastMinute: { delivered: r.delivered, deliveriesPerSecond: Math.round((r.delivered / 60) * 10) / 10 },
  };
}

/** The caller's deliveries, newest first: the dashboard's notification records. */
export async function listNotificationHistory(
  db: Db,
  userId: string,
  limit: number,
): Promise<NotificationRecord[]> {
  const rows = await db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notification_id')
    .innerJoin('notification_services as s', 's.id', 'd.notification_service_id')
    .leftJoin('alerts as r', 'r.id', 'n.alert_id')
    .leftJoin('templates as t', 't.id', 'r.template_id')
    .select([
      'd.id',
      'd.notification_id as notificationId',
      'd.notification_service_id as notificationServiceId',
      'd.status',
      'd.error',
      'd.attempts',
      'd.dispatched_at as dispatchedAt',
      'd.created_at as createdAt',
      'n.message',
      'n.kind',
      's.type',
      's.label',
      'r.id as alertId',
      'r.title',
      'r.party_name as partyName',
      't.name as templateName',
    ])
    .where('d.user_id', '=', userId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    notificationId: r.notificationId,
    notificationServiceId: r.notificationServiceId,
    notificationService: { type: r.type as NotificationServiceType, label: r.label },
    registration: r.alertId
      ? {
          id: r.alertId,
          title: r.title,
          partyName: r.partyName,
          template: { name: r.templateName ?? '' },
        }
      : null,
    kind: r.kind,
    message: r.message,
    error: r.error,
    status: r.status,
    attempts: r.attempts,
    dispatchedAt: r.dispatchedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  }));
}
