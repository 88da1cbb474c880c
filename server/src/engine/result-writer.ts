import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import { polledStatusesSql } from '../db/polled-statuses.ts';
import type { DB } from '../db/types.ts';
import type { Logger } from '../platform/logger.ts';
import type { NotificationKind, Outcome } from './outcome.ts';

const sameDue = sql.raw(`abs(extract(epoch FROM r.next_due_at - v.due)) < 0.001`);

export interface NewEngineNotification {
  userId: string;
  alertId: string;
  eventKey: string;
  kind: NotificationKind;
  message: string;
  metadata: Record<string, unknown>;
}

/** Hands notifications to the delivery pipeline (one statement for all); idempotent per event key. */
export type NotifyFn = (inputs: NewEngineNotification[]) => Promise<unknown>;

/** One finished poll, waiting to be written back. */
export interface PollRecord {
  id: string;
  token: string;
  dueAt: Date;
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
  outcome: Outcome;
  nextDueAt: Date;
  notification: NewEngineNotification | null;
  /** The number the alert page's timeline plots for this poll. */
  watchedValue: number | null;
  /** The answer's JSON text (null when larger than kept), on an answered poll only. */
  answer: { text: string | null; bytes: number } | null;
}

const MAX_ATTEMPTS = 8;

/**
 * Writes poll outcomes back in small batches (every `flushMs` or `maxBatch` records, a few batches at
 * once): one statement updates the alerts, releases their claims and inserts their poll runs, after
 * the batch's notifications are handed over. A write whose claim was taken away (the alert was
 * rescheduled or its worker reaped) changes nothing but the poll run.
 */
export function createResultWriter(deps: {
  db: Kysely<DB>;
  workerId: string;
  notify: NotifyFn;
  log: Logger;
  flushMs: number;
  maxBatch: number;
  /** Batches written at once (each its own transaction). */
  concurrency: number;
  /** Called once per record when it is written or finally given up. */
  onSettled: (records: PollRecord[], written: boolean) => void;
  onFlushed?: (flush: { records: number; notifications: number; ms: number }) => void;
}) {
  const buffer: PollRecord[] = [];
  let timer: NodeJS.Timeout | null = null;

  /**
   * Hands the batch's notifications to the pipeline, all at once (idempotent per event key), for
   * alerts still claimed by this poll and still polled; should that fail, one by one, so one bad
   * notification does not cost the others. Answers the ids notified.
   */
  async function notifyBatch(records: PollRecord[]): Promise<Set<string>> {
    const { rows } = await sql<{ id: string }>`
      SELECT r.id FROM alerts r
      JOIN unnest(${records.map((r) => r.id)}::uuid[], ${records.map((r) => r.token)}::uuid[],
                  ${records.map((r) => r.dueAt)}::timestamptz[]) AS v(id, token, due) ON r.id = v.id
      WHERE r.claim_token = v.token AND ${sameDue} AND r.status IN ${polledStatusesSql}`.execute(deps.db);
    const valid = new Set(rows.map((r) => r.id));
    const handing = records.filter((r) => valid.has(r.id));
    if (handing.length === 0) return new Set();
    try {
      await deps.notify(handing.map((r) => r.notification!));
      return new Set(handing.map((r) => r.id));
    } catch {
      const notified = new Set<string>();
      for (const record of handing) {
        try {
          await deps.notify([record.notification!]);
          notified.add(record.id);
        } catch (err) {
          deps.log.error({ err, alertId: record.id }, 'engine: creating a notification failed');
        }
      }
      return notified;
    }
  }

  /**
   * Writes one batch; answers how many notifications it handed over. Notifications commit first and
   * the outcomes after, in one statement: should the process die in between, the alerts are still
   * claimed, are polled again for the same due time, and the event keys stop a second notification.
   */
  async function writeBatch(batch: PollRecord[]): Promise<number> {
    const notifying = batch.filter((r) => r.notification !== null);
    const notified = notifying.length > 0 ? await notifyBatch(notifying) : new Set<string>();
    await sql`
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
            ${batch.map((r) => r.answer?.bytes ?? 0)}::int[]
          ) AS v(id, token, next_due, status, due, started, finished, lateness, duration, code, ok, matched,
                 err, proxy_id, last_matched, last_values, errors, completed, notify, watched, answered,
                 answer, answer_bytes)
        ), answers AS (
          -- The last answer, with the values kept before it (this statement's snapshot of the row).
          INSERT INTO alert_answers (alert_id, answer, answer_bytes, previous_values,
                                            status_code, received_at)
          SELECT v.id, v.answer, v.answer_bytes, r.last_values, v.code, v.finished
          FROM v JOIN alerts r ON r.id = v.id
          WHERE v.answered AND r.claim_token = v.token AND ${sameDue}
          ON CONFLICT (alert_id) DO UPDATE SET answer = excluded.answer,
            answer_bytes = excluded.answer_bytes, previous_values = excluded.previous_values,
            status_code = excluded.status_code, received_at = excluded.received_at
        ), done AS (
          UPDATE alerts r SET
            next_due_at = v.next_due,
            claimed_by = NULL, claim_token = NULL, claimed_until = NULL,
            status = CASE WHEN r.status IN ${polledStatusesSql} THEN v.status ELSE r.status END,
            last_run_at = CASE WHEN v.completed THEN v.started ELSE r.last_run_at END,
            last_completed_at = CASE WHEN v.completed THEN v.finished ELSE r.last_completed_at END,
            last_matched = v.last_matched,
            last_values = v.last_values,
            last_status_code = CASE WHEN v.completed THEN v.code ELSE r.last_status_code END,
            last_error = v.err,
            consecutive_errors = v.errors,
            last_notified_at = CASE WHEN v.notify THEN v.finished ELSE r.last_notified_at END
          FROM v
          -- A due time other than the one claimed means the alert was rescheduled mid-poll (edited,
          -- restarted or stopped by its owner): its result is stale and the new schedule stands.
          -- (Compared to the millisecond: the claimed due time came back through a JavaScript Date.)
          WHERE r.id = v.id AND r.claim_token = v.token AND ${sameDue}
          RETURNING r.id
        ), reset AS (
          UPDATE alerts r SET claimed_by = NULL, claim_token = NULL, claimed_until = NULL
          FROM v WHERE r.id = v.id AND r.claim_token = v.token AND NOT coalesce(${sameDue}, false)
          RETURNING r.id
        )
        INSERT INTO poll_runs (alert_id, proxy_id, due_at, started_at, finished_at, lateness_ms,
                               duration_ms, status_code, ok, matched, notified, error, worker_id,
                               watched_value)
        -- A proxy deleted while the poll went through it is forgotten, not a failed batch: the outcome
        -- stands and the run says "no proxy", as ON DELETE SET NULL does for runs written before.
        SELECT v.id, (SELECT p.id FROM proxies p WHERE p.id = v.proxy_id), v.due, v.started, v.finished, v.lateness, v.duration, v.code, v.ok,
               v.matched, v.notify, v.err, ${deps.workerId}::uuid, v.watched
        FROM v WHERE v.id IN (SELECT id FROM done UNION ALL SELECT id FROM reset)`.execute(deps.db);
    return notified.size;
  }

  const active = new Set<Promise<void>>();
  // Set when the oldest buffered record has waited flushMs (or on drain): flush even a small batch.
  let due = false;

  async function writeWithRetry(batch: PollRecord[]) {
    let written = false;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !written; attempt++) {
      const started = performance.now();
      try {
        const notified = await writeBatch(batch);
        written = true;
        deps.onFlushed?.({ records: batch.length, notifications: notified, ms: performance.now() - started });
      } catch (err) {
        deps.log.error({ err, attempt, records: batch.length }, 'engine: writing poll outcomes failed');
        if (attempt < MAX_ATTEMPTS) await sleep(Math.min(250 * 2 ** attempt, 5000));
      }
    }
    // Given up (the database stayed away): the claims lapse and the polls are made again.
    deps.onSettled(batch, written);
  }

  function pump() {
    while (active.size < deps.concurrency && buffer.length > 0 && (due || buffer.length >= deps.maxBatch)) {
      const flush = writeWithRetry(buffer.splice(0, deps.maxBatch)).finally(() => {
        active.delete(flush);
        pump();
      });
      active.add(flush);
    }
    if (buffer.length === 0) due = false;
    if (buffer.length > 0 && !due && !timer) {
      timer = setTimeout(() => {
        timer = null;
        due = true;
        pump();
      }, deps.flushMs);
    }
  }

  return {
    add(record: PollRecord) {
      buffer.push(record);
      pump();
    },
    /** Writes everything buffered; resolves when nothing is left. */
    async drain() {
      while (buffer.length > 0 || active.size > 0) {
        due = true;
        pump();
        await Promise.race(active);
      }
    },
    figures() {
      return { buffered: buffer.length, flushing: active.size };
    },
  };
}

export type ResultWriter = ReturnType<typeof createResultWriter>;
