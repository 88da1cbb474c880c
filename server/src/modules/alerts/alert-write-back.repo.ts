import { type Kysely, sql } from 'kysely';
import { prepared } from '../../db/database.ts';
import { polledStatusesSql } from '../../db/polled-statuses.ts';
import type { DB } from '../../db/types.ts';

/**
 * An alert row's poll records go to one block (migration 0026) when there are this many, or when the
 * oldest is POLL_BLOCK_MAX_AGE_SECONDS old, so that a block spans at most that and one interval.
 */
export const POLL_BLOCK_SIZE = 8;
const POLL_BLOCK_MAX_AGE_SECONDS = 3600;

/** The alert row's poll records after this poll: emptied when they go to a block. */
const recentPolls = sql`CASE WHEN v.flush THEN NULL ELSE v.polls END`;

/**
 * The row's due time is the one claimed (`v.due`), to the millisecond: the claimed due time came back
 * through a JavaScript Date. Compared without numeric arithmetic.
 */
export const sameDue = sql.raw(
  `(r.next_due_at > v.due - interval '1 millisecond' AND r.next_due_at < v.due + interval '1 millisecond')`,
);

/**
 * The row is still held by this claim of `workerId`: the claim's token, or (token null) the worker's
 * reservation, kept by its last write-back for this due time (alert-polling.repo.ts readReserved).
 */
export const holds = (workerId: string) =>
  sql`(r.claim_token = v.token OR (v.token IS NULL AND r.claim_token IS NULL
        AND r.claimed_by = ${workerId}::uuid AND r.claimed_until IS NOT NULL))`;

/**
 * A claim as the engine holds it: the alert, the claim's token (null: a reservation kept by the
 * worker's last write-back) and the due time it was claimed for.
 */
export interface HeldClaim {
  id: string;
  token: string | null;
  dueAt: Date;
}

/**
 * Whether a write-back keeps the worker's claim on each alert for its next due time (a reservation):
 * the next poll then needs no claim statement, only a read. `share` of the alerts is kept (the engine
 * keeps all with one live worker, none with more); none is kept whose next due time is within
 * `afterMs` of the write (the worker may already have read past it).
 */
export interface Reservation {
  share: number;
  afterMs: number;
  leaseSeconds: number;
}

/** One finished poll, as the write-back stores it. */
export interface PollWrite extends HeldClaim {
  startedAt: Date;
  finishedAt: Date;
  latenessMs: number;
  durationMs: number;
  statusCode: number | null;
  ok: boolean;
  /** The rules' verdict on this poll's answer; null when there was no answer. */
  matched: boolean | null;
  error: string | null;
  proxyId: string | null;
  /** The alert's state after the poll. */
  outcome: {
    status: string;
    lastMatched: boolean;
    lastValues: Record<string, unknown> | null;
    consecutiveErrors: number;
    /** Whether the poll completed (answered or failed); a deferred poll did not. */
    completed: boolean;
    /** What the poll saw (shared pollClasses) and the alert's health after it. */
    pollClass: string;
    health: string;
    healthCause: string | null;
    driftCount: number;
    /** The rules read the answer: the alert's last successful check. */
    success: boolean;
  };
  nextDueAt: Date;
  /** The number the alert page's timeline plots for this poll. */
  watchedValue: number | null;
  /**
   * The answer's JSON text and its digest, on an answered poll only. The text is null when larger
   * than kept, or when the digest is the kept answer's (the kept text stays as it is).
   */
  answer: { text: string | null; bytes: number; hash: string } | null;
}

/** Which of `claims` are still held (same token, same due time) by alerts still polled. */
export async function findHeldPolledIds(
  db: Kysely<DB>,
  workerId: string,
  claims: HeldClaim[],
): Promise<Set<string>> {
  const { rows } = await sql<{ id: string }>`${prepared}
      SELECT r.id FROM alerts r
      JOIN unnest(${claims.map((r) => r.id)}::uuid[], ${claims.map((r) => r.token)}::uuid[],
                  ${claims.map((r) => r.dueAt)}::timestamptz[]) AS v(id, token, due) ON r.id = v.id
      WHERE ${holds(workerId)} AND ${sameDue} AND r.status IN ${polledStatusesSql}`.execute(db);
  return new Set(rows.map((r) => r.id));
}

/**
 * Writes one batch of poll outcomes in one statement: updates the alerts (status, last run, next due
 * time, kept values, the kept answer) and releases their claims or keeps them as reservations for the
 * next due time (`reservation`), and appends each poll's record to its alert row, moving the row's
 * records into one row of poll_blocks every POLL_BLOCK_SIZE polls: one row per poll. A write whose claim
 * was taken away (the alert was rescheduled or its worker reaped) changes nothing but the poll's record.
 * The polls are announced to the live hub.
 * `notified` names the alerts whose notification was handed over.
 */
export async function writePollOutcomes(
  db: Kysely<DB>,
  workerId: string,
  batch: PollWrite[],
  notified: ReadonlySet<string>,
  reservation: Reservation | null,
): Promise<void> {
  const keep = reservation
    ? sql`random() < ${reservation.share}
          AND v.next_due > now() + make_interval(secs => ${reservation.afterMs / 1000})`
    : sql`false`;
  const lease = reservation?.leaseSeconds ?? 0;
  await sql`${prepared}
        WITH v AS (
          SELECT * FROM unnest(
            ${batch.map((r) => r.id)}::uuid[], ${batch.map((r) => r.token)}::uuid[],
            ${batch.map((r) => r.nextDueAt)}::timestamptz[], ${batch.map((r) => r.outcome.status)}::text[],
            ${batch.map((r) => r.dueAt)}::timestamptz[], ${batch.map((r) => r.startedAt)}::timestamptz[],
            ${batch.map((r) => r.finishedAt)}::timestamptz[], ${batch.map((r) => r.latenessMs)}::int[],
            ${batch.map((r) => r.durationMs)}::int[], ${batch.map((r) => r.statusCode)}::int[],
            ${batch.map((r) => r.ok)}::boolean[], ${batch.map((r) => r.matched)}::boolean[],
            ${batch.map((r) => r.error)}::text[], ${batch.map((r) => r.proxyId)}::uuid[],
            ${batch.map((r) => r.outcome.lastMatched)}::boolean[],
            ${batch.map((r) => (r.outcome.lastValues === null ? null : JSON.stringify(r.outcome.lastValues)))}::jsonb[],
            ${batch.map((r) => r.outcome.consecutiveErrors)}::int[],
            ${batch.map((r) => r.outcome.completed)}::boolean[],
            ${batch.map((r) => notified.has(r.id))}::boolean[],
            ${batch.map((r) => r.watchedValue)}::float8[],
            ${batch.map((r) => r.answer !== null)}::boolean[],
            ${batch.map((r) => r.answer?.text ?? null)}::jsonb[],
            ${batch.map((r) => r.answer?.bytes ?? 0)}::int[],
            ${batch.map((r) => r.answer?.hash ?? null)}::text[],
            ${batch.map((r) => r.outcome.pollClass)}::text[], ${batch.map((r) => r.outcome.health)}::text[],
            ${batch.map((r) => r.outcome.healthCause)}::text[], ${batch.map((r) => r.outcome.driftCount)}::int[],
            ${batch.map((r) => r.outcome.success)}::boolean[]
          ) AS v(id, token, next_due, status, due, started, finished, lateness, duration, code, ok, matched,
                 err, proxy_id, last_matched, last_values, errors, completed, notify, watched, answered,
                 answer, answer_bytes, answer_hash, poll_class, health, cause, drift, success)
        ), k AS (
          -- The records the alert row holds with this poll's (migration 0026), and whether they go to
          -- a block now.
          SELECT v.*, ${keep} AS keep,
                 coalesce(o.recent_polls, '{}') ||
                 ROW(nextval('poll_record_ids'), v.proxy_id, v.due, v.started, v.finished, v.lateness,
                     v.duration, v.code, v.ok, v.matched, v.notify, v.err, ${workerId}::uuid, v.watched,
                     NOT v.completed, v.poll_class, now())::poll_record AS polls,
                 coalesce(cardinality(o.recent_polls), 0) + 1 >= ${POLL_BLOCK_SIZE}
                   OR coalesce((o.recent_polls[1]).created_at
                                 < now() - make_interval(secs => ${POLL_BLOCK_MAX_AGE_SECONDS}), false)
                   AS flush
          FROM v JOIN alerts o ON o.id = v.id
        ), done AS (
          UPDATE alerts r SET
            next_due_at = v.next_due,
            -- Kept: the claim becomes this worker's reservation of the next due time (no token; the
            -- lease runs from that due time). Else released, for any worker to claim.
            claimed_by = CASE WHEN v.keep THEN ${workerId}::uuid END,
            claim_token = NULL,
            claimed_until = CASE WHEN v.keep THEN v.next_due + make_interval(secs => ${lease}) END,
            status = CASE WHEN r.status IN ${polledStatusesSql} THEN v.status ELSE r.status END,
            last_run_at = CASE WHEN v.completed THEN v.started ELSE r.last_run_at END,
            last_completed_at = CASE WHEN v.completed THEN v.finished ELSE r.last_completed_at END,
            last_matched = v.last_matched,
            last_values = v.last_values,
            last_status_code = CASE WHEN v.completed THEN v.code ELSE r.last_status_code END,
            last_error = v.err,
            consecutive_errors = v.errors,
            -- Health (shared nextHealth): since when it holds, and the last poll the rules could read.
            -- A deferred poll says nothing of health: the row's stands (the staleness rule may have
            -- set it since the claim).
            health = CASE WHEN v.completed THEN v.health ELSE r.health END,
            health_cause = CASE WHEN v.completed THEN v.cause ELSE r.health_cause END,
            drift_count = CASE WHEN v.completed THEN v.drift ELSE r.drift_count END,
            health_since = CASE WHEN NOT v.completed OR r.health = v.health THEN r.health_since
                                ELSE v.finished END,
            last_success_at = CASE WHEN v.success THEN v.finished ELSE r.last_success_at END,
            last_notified_at = CASE WHEN v.notify THEN v.finished ELSE r.last_notified_at END,
            -- The last answer, with the values kept before it (the row's, as this statement found it).
            -- An unchanged answer (same digest as the kept one) keeps the stored text: assigning the
            -- column to itself keeps its TOAST value, so up to 256 KB is not written again per poll.
            answer = CASE WHEN NOT v.answered OR r.answer_hash IS NOT DISTINCT FROM v.answer_hash
                          THEN r.answer ELSE v.answer END,
            answer_bytes = CASE WHEN v.answered THEN v.answer_bytes ELSE r.answer_bytes END,
            answer_hash = CASE WHEN v.answered THEN v.answer_hash ELSE r.answer_hash END,
            answer_previous_values = CASE WHEN v.answered THEN r.last_values ELSE r.answer_previous_values END,
            answer_status_code = CASE WHEN v.answered THEN v.code ELSE r.answer_status_code END,
            answer_received_at = CASE WHEN v.answered THEN v.finished ELSE r.answer_received_at END,
            recent_polls = ${recentPolls}
          FROM k AS v
          -- A due time other than the one claimed means the alert was rescheduled mid-poll (edited,
          -- restarted or stopped by its owner): its result is stale and the new schedule stands.
          WHERE r.id = v.id AND ${holds(workerId)} AND ${sameDue}
          RETURNING r.id, r.user_id, r.status, v.polls, v.flush
        ), reset AS (
          UPDATE alerts r SET claimed_by = NULL, claim_token = NULL, claimed_until = NULL,
                              recent_polls = ${recentPolls}
          -- Only the rows "done" did not write (rarely any): the others need no second look.
          FROM k AS v WHERE v.id NOT IN (SELECT id FROM done)
            AND r.id = v.id AND ${holds(workerId)} AND NOT coalesce(${sameDue}, false)
          RETURNING r.id, r.user_id, r.status, v.polls, v.flush
        ), written AS (
          -- A write whose claim was taken away still records its poll.
          SELECT * FROM done UNION ALL SELECT * FROM reset
        ), blocks AS (
          INSERT INTO poll_blocks (alert_id, first_at, last_at, polls)
          SELECT id, (polls[1]).created_at, (polls[cardinality(polls)]).created_at, polls
          FROM written WHERE flush
        )
        SELECT announce_polls(array_agg(id)) FROM written`.execute(db);
}
