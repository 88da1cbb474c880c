import { setTimeout as sleep } from 'node:timers/promises';
import type { AlertPollingService, PollWrite } from '../modules/alerts/alert-polling.service.ts';
import type { Logger } from '../platform/logger.ts';
import type { NotificationKind, Outcome } from './outcome.ts';

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

/** One finished poll, waiting to be written back: what the write-back stores, and its notification. */
export interface PollRecord extends PollWrite {
  outcome: Outcome;
  notification: NewEngineNotification | null;
}

const MAX_ATTEMPTS = 8;

/**
 * Writes poll outcomes back in small batches (every `flushMs` or `maxBatch` records, a few batches at
 * once): the alerts service's one statement updates the alerts, releases their claims and inserts
 * their poll runs, after the batch's notifications are handed over. A write whose claim was taken
 * away (the alert was rescheduled or its worker reaped) changes nothing but the poll run.
 */
export function createResultWriter(deps: {
  alerts: Pick<AlertPollingService, 'heldPolledIds' | 'writeBack'>;
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
    const valid = await deps.alerts.heldPolledIds(records);
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
    await deps.alerts.writeBack(deps.workerId, batch, notified);
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
