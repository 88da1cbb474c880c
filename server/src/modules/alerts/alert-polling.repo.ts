import { STALE_AFTER_INTERVALS } from '@resort/shared';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { prepared } from '../../db/database.ts';
import { polledStatusesSql } from '../../db/polled-statuses.ts';
import type { AlertRecord, DB } from '../../db/types.ts';
import { holds, sameDue } from './alert-write-back.repo.ts';

type Db = Kysely<DB> | Transaction<DB>;

/*
 * The engine's statements on the alert row: worker presence, scheduling, claims, leases and
 * rescheduling, the pruning of poll runs, and staleness. The write-back is alert-write-back.repo.ts.
 */

/** A claimed alert: the columns a poll reads, its (claimed, so set) due time and its template's version. */
export type ClaimedAlert = Pick<
  AlertRecord,
  | 'id'
  | 'user_id'
  | 'template_id'
  | 'title'
  | 'party_name'
  | 'custom_headers'
  | 'custom_query'
  | 'custom_body'
  | 'overrides'
  | 'stay_window'
  | 'watch_config'
  | 'polling_interval_seconds'
  | 'status'
  | 'last_matched'
  | 'last_values'
  | 'last_notified_at'
  | 'consecutive_errors'
  | 'health'
  | 'health_cause'
  | 'drift_count'
> & {
  next_due_at: Date;
  /** The claim's token; null for a reservation kept by this worker's last write-back. */
  claim_token: string | null;
  template_updated_at: Date;
  /** The kept answer's digest: an answer with the same one is not sent to be written again. */
  answer_hash: string | null;
};

/** The backend start of a session, read where it is kept (a JavaScript Date would lose its microseconds). */
const sessionStarted = (sessionPid: number | null) =>
  sql<Date | null>`(SELECT backend_start FROM pg_stat_activity WHERE pid = ${sessionPid})`;

/** The deadline a beat announces: live for `liveSeconds` from the database's now. */
const liveUntil = (liveSeconds: number) => sql<Date>`now() + make_interval(secs => ${liveSeconds})`;

export async function registerWorker(
  db: Db,
  worker: { id: string; hostname: string; pid: number; sessionPid: number | null; liveSeconds: number },
) {
  const session = { session_pid: worker.sessionPid, session_started: sessionStarted(worker.sessionPid) };
  const beat = { heartbeat_at: sql<Date>`now()`, live_until: liveUntil(worker.liveSeconds) };
  await db
    .insertInto('engine_workers')
    .values({ id: worker.id, hostname: worker.hostname, pid: worker.pid, ...beat, ...session })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...beat, ...session }))
    .execute();
}

/** A worker's session opened again (after a loss): peers watch the new one. */
export async function setWorkerSession(db: Db, workerId: string, sessionPid: number): Promise<void> {
  await db
    .updateTable('engine_workers')
    .set({ session_pid: sessionPid, session_started: sessionStarted(sessionPid) })
    .where('id', '=', workerId)
    .execute();
}

/**
 * Beats this worker's heartbeat, announcing it live for `liveSeconds`; answers whether its row still
 * exists and how many workers live (each within the deadline its own last beat announced).
 */
export async function beatHeartbeat(db: Db, workerId: string, liveSeconds: number) {
  const { rows } = await sql<{ present: number; live: number; db_now: Date }>`${prepared}
    WITH beat AS (UPDATE engine_workers SET heartbeat_at = now(), live_until = ${liveUntil(liveSeconds)}
                  WHERE id = ${workerId} RETURNING id)
    SELECT (SELECT count(*) FROM beat)::int AS present,
           (SELECT count(*) FROM engine_workers WHERE live_until > now())::int AS live,
           now() AS db_now`.execute(db);
  const row = rows[0]!;
  return { present: row.present > 0, live: Math.max(1, row.live), dbNow: row.db_now };
}

/**
 * Forgets workers that are gone and releases every claim they held: a worker whose own session has
 * ended (no such backend in `pg_stat_activity`: the process died and its socket closed), or that is
 * past the deadline its last beat announced (a hung process, or one without a session).
 */
export async function reapDeadWorkers(db: Db): Promise<number> {
  const dead = await db
    .deleteFrom('engine_workers as w')
    .where((eb) =>
      eb.or([
        eb('w.live_until', '<', sql<Date>`now()`),
        eb.and([
          eb('w.session_pid', 'is not', null),
          sql<boolean>`NOT EXISTS (SELECT 1 FROM pg_stat_activity a
            WHERE a.pid = w.session_pid AND a.backend_start IS NOT DISTINCT FROM w.session_started)`,
        ]),
      ]),
    )
    .returning('w.id')
    .execute();
  // Rare (a worker died), so no index on claimed_by: a scan of the table then is cheaper than an
  // index kept up to date on every claim.
  if (dead.length === 0) return 0;
  const released = await db
    .updateTable('alerts')
    .set({ claimed_by: null, claim_token: null, claimed_until: null })
    .where(
      'claimed_by',
      'in',
      dead.map((d) => d.id),
    )
    .executeTakeFirst();
  return Number(released.numUpdatedRows);
}

/** A stopping worker hands its unfinished claims back and leaves. */
export async function removeWorker(db: Db, workerId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('alerts')
      .set({ claimed_by: null, claim_token: null, claimed_until: null })
      .where('claimed_by', '=', workerId)
      .execute();
    await trx.deleteFrom('engine_workers').where('id', '=', workerId).execute();
  });
}

/** A stopping worker hands back the claims of polls it has not started: peers poll them on time. */
export async function releaseClaims(
  db: Db,
  workerId: string,
  claims: { id: string; token: string | null }[],
) {
  if (claims.length === 0) return;
  await sql`
    UPDATE alerts r SET claimed_by = NULL, claim_token = NULL, claimed_until = NULL
    FROM unnest(${claims.map((c) => c.id)}::uuid[], ${claims.map((c) => c.token)}::uuid[]) AS v(id, token)
    WHERE r.id = v.id AND ${holds(workerId)} AND r.claimed_by = ${workerId}`.execute(db);
}

/**
 * Gives new (or restarted) alerts their first due time: now when only a few arrived, else the next
 * point of each alert's phase, so a bulk import is spread over one interval.
 */
export async function scheduleNewAlerts(db: Db, options: { limit: number; prompt: number }): Promise<number> {
  const result = await sql`
    WITH fresh AS (
      SELECT id, polling_interval_seconds::bigint * 1000 AS i FROM alerts
      WHERE next_due_at IS NULL AND status IN ${polledStatusesSql}
      LIMIT ${options.limit} FOR UPDATE SKIP LOCKED
    ), n AS (SELECT count(*) AS c FROM fresh),
    t AS (SELECT (extract(epoch FROM now()) * 1000)::bigint AS ms)
    UPDATE alerts r SET next_due_at = CASE
      WHEN n.c <= ${options.prompt} THEN date_trunc('milliseconds', now())
      ELSE to_timestamp((p.phase + ((t.ms - p.phase) / fresh.i + 1) * fresh.i) / 1000.0)
    END
    FROM fresh CROSS JOIN n CROSS JOIN t
      CROSS JOIN LATERAL (SELECT (hashtext(fresh.id::text)::bigint & 2147483647) % fresh.i AS phase) p
    WHERE r.id = fresh.id`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The columns a poll reads (ClaimedAlert), as claimDueAlerts answers them. */
const claimedColumns = sql.raw(`r.id, r.user_id, r.template_id, t.updated_at AS template_updated_at, r.title,
  r.party_name, r.custom_headers, r.custom_query, r.custom_body, r.overrides, r.stay_window, r.watch_config,
  r.polling_interval_seconds, r.next_due_at, r.status, r.last_matched, r.last_values, r.last_notified_at,
  r.consecutive_errors, r.health, r.health_cause, r.drift_count, r.answer_hash, r.claim_token`);

/**
 * Claims up to `limit` alerts due before `dueBefore` (now plus the look-ahead), oldest due first, skipping rows another
 * worker is claiming at this instant. One statement per batch, whatever its size.
 */
export async function claimDueAlerts(
  db: Db,
  options: {
    workerId: string;
    token: string;
    limit: number;
    dueBefore: Date;
    leaseSeconds: number;
    /** Also claims alerts whose claim's lease ran out (a backstop: a scan of the held rows). */
    expired?: boolean;
  },
): Promise<{ alerts: ClaimedAlert[]; dbNow: Date }> {
  // The cut-off is a value, not now() + interval, so the planner estimates the due rows from the
  // statistics: a large backlog then walks the index in due order instead of sorting all of it.
  // Unheld alerts are read from alerts_claimable_idx; held ones whose lease ran out only with `expired`.
  const claimable = options.expired
    ? sql`(claimed_until IS NULL OR claimed_until < now())`
    : sql`claimed_until IS NULL`;
  const { rows } = await sql<ClaimedAlert & { db_now: Date }>`
    WITH due AS (
      SELECT id FROM alerts
      WHERE status IN ${polledStatusesSql}
        AND next_due_at <= ${options.dueBefore}
        AND ${claimable}
      ORDER BY next_due_at
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE alerts r
    SET claimed_by = ${options.workerId}, claim_token = ${options.token},
        claimed_until = now() + make_interval(secs => ${options.leaseSeconds})
    FROM due, templates t
    WHERE r.id = due.id AND t.id = r.template_id
    RETURNING ${claimedColumns}, now() AS db_now`.execute(db);
  const dbNow = rows[0]?.db_now ?? new Date();
  return { alerts: rows, dbNow };
}

/** A reservation: this worker's, kept by its write-back (no token, a lease from the due time on). */
const reservedBy = (workerId: string) =>
  sql`r.claimed_by = ${workerId}::uuid AND r.claim_token IS NULL AND r.claimed_until IS NOT NULL
      AND r.status IN ${polledStatusesSql}`;

/**
 * Reads (never writes) this worker's reservations due in (after, dueBefore], in due order, up to
 * `limit`: the claims its write-backs kept for the next due time, so a poll of a reserved alert costs
 * no claim statement. `after` is where the previous read stopped (due time and id), so each
 * reservation is read once.
 */
export async function readReservedAlerts(
  db: Db,
  options: { workerId: string; after: { dueAt: Date; id: string }; dueBefore: Date; limit: number },
): Promise<{ alerts: ClaimedAlert[]; dbNow: Date }> {
  const { rows } = await sql<ClaimedAlert & { db_now: Date }>`
    SELECT ${claimedColumns}, now() AS db_now
    FROM alerts r JOIN templates t ON t.id = r.template_id
    WHERE ${reservedBy(options.workerId)}
      AND r.next_due_at <= ${options.dueBefore} AND r.next_due_at >= ${options.after.dueAt}
      AND (r.next_due_at, r.id) > (${options.after.dueAt}::timestamptz, ${options.after.id}::uuid)
    ORDER BY r.next_due_at, r.id
    LIMIT ${options.limit}`.execute(db);
  return { alerts: rows, dbNow: rows[0]?.db_now ?? new Date() };
}

/**
 * This worker's reservations due before `before` (read already, or never: see readReservedAlerts)
 * that are overdue by `overdueSeconds`: missed, a backstop. (A reservation its owner made due sooner
 * is no longer one: migration 0025 hands it back to the pool.) Answers them all; the worker skips
 * those it is polling.
 */
export async function readOverdueReservations(
  db: Db,
  options: { workerId: string; before: Date; overdueSeconds: number; windowSeconds: number },
): Promise<ClaimedAlert[]> {
  // Only the last `windowSeconds` of the reads (a reservation left further behind comes back to the
  // pool when its lease runs out).
  const { rows } = await sql<ClaimedAlert>`
    SELECT ${claimedColumns}
    FROM alerts r JOIN templates t ON t.id = r.template_id
    WHERE ${reservedBy(options.workerId)}
      AND r.next_due_at > ${options.before}::timestamptz - make_interval(secs => ${options.windowSeconds})
      AND r.next_due_at <= least(${options.before}::timestamptz, now() - make_interval(secs => ${options.overdueSeconds}))`.execute(
    db,
  );
  return rows;
}

/** Renews the lease of claims this worker is still working on (polls slower than half a lease). */
export async function renewLeases(db: Db, workerId: string, ids: string[], leaseSeconds: number) {
  if (ids.length === 0) return;
  await sql`
    UPDATE alerts SET claimed_until = now() + make_interval(secs => ${leaseSeconds})
    WHERE id = ANY(${ids}::uuid[]) AND claimed_by = ${workerId}`.execute(db);
}

/** Late alerts moved to their next phase without a poll (see schedule.ts catchUp). */
export async function rescheduleClaims(
  db: Db,
  workerId: string,
  items: { id: string; token: string | null; dueAt: Date; nextDueAt: Date }[],
) {
  if (items.length === 0) return;
  // A due time changed since the claim (the owner rescheduled the alert) stands.
  await sql`
    UPDATE alerts r SET
      next_due_at = CASE WHEN ${sameDue} THEN v.next_due
                         ELSE r.next_due_at END,
      claimed_by = NULL, claim_token = NULL, claimed_until = NULL
    FROM unnest(${items.map((i) => i.id)}::uuid[], ${items.map((i) => i.token)}::uuid[],
                ${items.map((i) => i.dueAt)}::timestamptz[],
                ${items.map((i) => i.nextDueAt)}::timestamptz[]) AS v(id, token, due, next_due)
    WHERE r.id = v.id AND ${holds(workerId)}`.execute(db);
}

/**
 * Deletes poll runs older than the retention: the blocks whose newest poll is older, a chunk at a time
 * so no statement runs long, and the records still on an alert row whose newest is (an alert no
 * longer polled keeps its last records there). Answers the polls deleted.
 */
export async function prunePollRuns(db: Db, retentionHours: number, chunk = 20_000): Promise<number> {
  const cutoff = sql`now() - make_interval(hours => ${retentionHours})`;
  const { rows: held } = await sql<{ polls: number }>`
    WITH pruned AS (
      UPDATE alerts a SET recent_polls = NULL
      FROM (SELECT id, cardinality(recent_polls) AS n FROM alerts
            WHERE (recent_polls[cardinality(recent_polls)]).created_at < ${cutoff}) o
      WHERE a.id = o.id
      RETURNING o.n
    )
    SELECT coalesce(sum(n), 0)::int AS polls FROM pruned`.execute(db);
  let total = held[0]?.polls ?? 0;
  for (;;) {
    const { rows } = await sql<{ blocks: number; polls: number }>`
      WITH pruned AS (
        DELETE FROM poll_blocks WHERE id IN (
          SELECT id FROM poll_blocks WHERE last_at < ${cutoff} LIMIT ${chunk})
        RETURNING cardinality(polls) AS n
      )
      SELECT count(*)::int AS blocks, coalesce(sum(n), 0)::int AS polls FROM pruned`.execute(db);
    total += rows[0]?.polls ?? 0;
    if ((rows[0]?.blocks ?? 0) < chunk) return total;
  }
}

/**
 * The staleness rule, the one place it is written (docs/product.md, "Polling and rules"): a polled
 * alert is stale when it has not completed a poll within STALE_AFTER_INTERVALS of its intervals,
 * counted from the last completed poll or from when polling last (re)started, so a just-reactivated
 * alert is not flagged. `now` is an SQL timestamp.
 */
function staleAt(now: RawBuilder<unknown>) {
  return sql<boolean>`greatest(coalesce(last_completed_at, '-infinity'), active_since)
    < ${now} - make_interval(secs => ${STALE_AFTER_INTERVALS} * polling_interval_seconds)`;
}

/** Ids of the polled alerts (of `ids`, when given) that are stale at `now`. */
export async function findStaleAlertIds(db: Db, now: Date, ids?: string[]): Promise<Set<string>> {
  let query = db.selectFrom('alerts');
  if (ids) query = query.where('id', 'in', ids);
  const rows = await query
    .select('id')
    .where(sql<boolean>`status IN ${polledStatusesSql}`)
    .where(staleAt(sql`${now}::timestamptz`))
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * The pool's alert figures for GET /api/health: live workers, polled alerts, the due backlog no
 * worker has claimed, and stale alerts, in one statement.
 */
export async function readPoolFigures(db: Db) {
  const { rows } = await sql<{ workers: number; polled: number; due_backlog: number; stale: number }>`
    SELECT
      (SELECT count(*) FROM engine_workers WHERE live_until > now())::int AS workers,
      count(*)::int AS polled,
      (count(*) FILTER (WHERE next_due_at < now() - interval '1 second'
                          AND (claimed_until IS NULL OR claimed_until < now())))::int AS due_backlog,
      (count(*) FILTER (WHERE ${staleAt(sql`now()`)}))::int AS stale
    FROM alerts WHERE status IN ${polledStatusesSql}`.execute(db);
  return rows[0]!;
}
