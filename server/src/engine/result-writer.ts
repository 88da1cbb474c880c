import { setTimeout as sleep } from 'node:timers/promises';
import type { AlertPollingService, PollWrite, Reservation } from '../modules/alerts/alert-polling.service.ts';
import type { NewNotification } from '../modules/notifications/new-notification.ts';
import type { Logger } from '../platform/logger.ts';
import { storableText } from '../platform/storable.ts';
import type { Outcome } from './outcome.ts';

/** Hands notifications to the delivery pipeline (one statement for all); idempotent per event key. */
export type NotifyFn = (inputs: NewNotification[]) => Promise<unknown>;

/** One finished poll, waiting to be written back: what the write-back stores, and its notification. */
export interface PollRecord extends PollWrite {
  outcome: Outcome;
  /** The alert's state had this poll failed: written when this poll's outcome cannot be stored. */
  failedOutcome: Outcome;
  /** Whether the alert matched before this poll: kept when its notification was not handed over. */
  matchedBefore: boolean;
  notification: NewNotification | null;
}

/** SQLSTATE classes that blame a row's data (22 data exception, 23 integrity), not the database. */
function isRowDataError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/**
 * The record as a failed poll of its alert: the alert's error says why the outcome could not be
 * stored, its kept values and answer stay as they were, and the claim is released as usual.
 */
function asStoreFailure(record: PollRecord, err: unknown): PollRecord {
  const reason = storableText((err as { message?: string })?.message ?? String(err));
  return {
    ...record,
    ok: false,
    matched: null,
    error: `The poll's outcome could not be stored: ${reason}`,
    watchedValue: null,
    answer: null,
    // A notification already handed over stands: the match it announced is recorded with it.
    outcome: { ...record.failedOutcome, lastMatched: record.outcome.lastMatched },
  };
}

const MAX_ATTEMPTS = 8;

/**
 * Writes poll outcomes back in small batches (`maxBatch` records, or once the oldest has waited
 * `flushMs` when the batch holds a notification and `quietFlushMs` when it holds none; a few batches
 * at once): the alerts service's one statement updates the alerts, releases their claims and records
 * their polls, after the batch's notifications are handed over. A write whose claim was taken
 * away (the alert was rescheduled or its worker reaped) changes nothing but the poll's record.
 */
export function createResultWriter(deps: {
  alerts: Pick<AlertPollingService, 'heldPolledIds' | 'writeBack'>;
  workerId: string;
  notify: NotifyFn;
  log: Logger;
  /** The longest a notification waits to be handed over. */
  flushMs: number;
  /** The longest an outcome with nothing to tell waits (fewer, larger write-backs at a low rate). */
  quietFlushMs: number;
  maxBatch: number;
  /** Batches written at once (each its own transaction). */
  concurrency: number;
  /** Whether and how the write-back keeps claims for the next due time; null: releases them all. */
  reservation?: () => Reservation | null;
  /** Called once per record when it is written or finally given up. */
  onSettled: (records: PollRecord[], written: boolean) => void;
  onFlushed?: (flush: { records: number; notifications: number; ms: number }) => void;
}) {
  const buffer: PollRecord[] = [];
  let timer: NodeJS.Timeout | null = null;
  /** When the timer fires (local time): a notification coming in moves it to within flushMs. */
  let timerAt = 0;

  /**
   * Hands the batch's notifications to the pipeline, all at once (idempotent per event key), for
   * alerts still claimed by this poll and still polled; should that fail, one by one, so one bad
   * notification does not cost the others. Answers the ids notified.
   */
  async function notifyBatch(records: PollRecord[]): Promise<Set<string>> {
    const valid = await deps.alerts.heldPolledIds(deps.workerId, records);
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
    // A match whose notification was not handed over is not recorded as the alert's state: the next
    // poll sees the state from before it and notifies then.
    const written = batch.map((r) =>
      r.notification === null || notified.has(r.id)
        ? r
        : { ...r, outcome: { ...r.outcome, lastMatched: r.matchedBefore } },
    );
    await deps.alerts.writeBack(deps.workerId, written, notified, deps.reservation?.() ?? null);
    return notified.size;
  }

  /**
   * Writes the batch; when the database refuses it for a row's data, halves it until the row is
   * alone and writes that one as a failed poll (asStoreFailure), so one row never costs the others.
   * Answers the records written and those still to write (the database itself failed).
   */
  async function writeIsolating(
    batch: PollRecord[],
  ): Promise<{ written: PollRecord[]; notified: number; left: PollRecord[] }> {
    try {
      return { written: batch, notified: await writeBatch(batch), left: [] };
    } catch (err) {
      if (!isRowDataError(err)) {
        deps.log.error({ err, records: batch.length }, 'engine: writing poll outcomes failed');
        return { written: [], notified: 0, left: batch };
      }
      if (batch.length === 1) {
        deps.log.error({ err, alertId: batch[0]!.id }, "engine: a poll's outcome could not be stored");
        const failed = asStoreFailure(batch[0]!, err);
        try {
          return { written: [failed], notified: await writeBatch([failed]), left: [] };
        } catch (again) {
          deps.log.error({ err: again, alertId: batch[0]!.id }, 'engine: recording a store failure failed');
          return { written: [], notified: 0, left: batch };
        }
      }
      const half = Math.ceil(batch.length / 2);
      const parts = [await writeIsolating(batch.slice(0, half)), await writeIsolating(batch.slice(half))];
      return {
        written: parts.flatMap((p) => p.written),
        notified: parts[0]!.notified + parts[1]!.notified,
        left: parts.flatMap((p) => p.left),
      };
    }
  }

  const active = new Set<Promise<void>>();
  // Set when the oldest buffered record has waited flushMs (or on drain): flush even a small batch.
  let due = false;

  async function writeWithRetry(batch: PollRecord[]) {
    let left = batch;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && left.length > 0; attempt++) {
      const started = performance.now();
      const result = await writeIsolating(left);
      left = result.left;
      if (result.written.length > 0) {
        deps.onSettled(result.written, true);
        const ms = performance.now() - started;
        deps.onFlushed?.({ records: result.written.length, notifications: result.notified, ms });
      }
      if (left.length > 0 && attempt < MAX_ATTEMPTS) await sleep(Math.min(250 * 2 ** attempt, 5000));
    }
    // Given up (the database stayed away): the claims lapse and the polls are made again.
    if (left.length > 0) deps.onSettled(left, false);
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
      const notifying = buffer.some((r) => r.notification !== null);
      arm(notifying ? deps.flushMs : Math.max(deps.flushMs, deps.quietFlushMs));
    }
  }

  function arm(ms: number) {
    if (timer) clearTimeout(timer);
    timerAt = Date.now() + ms;
    timer = setTimeout(() => {
      timer = null;
      due = true;
      pump();
    }, ms);
  }

  return {
    add(record: PollRecord) {
      buffer.push(record);
      pump();
      // A notification waits flushMs at most, though quiet outcomes before it were given longer.
      if (record.notification !== null && timer && timerAt - Date.now() > deps.flushMs) arm(deps.flushMs);
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
