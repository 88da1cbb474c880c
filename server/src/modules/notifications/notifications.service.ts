import { randomUUID } from 'node:crypto';
import {
  type DeliveryFigures,
  HISTORY_DEFAULT_LIMIT,
  type NotificationHistoryInput,
  type NotificationRecord,
} from '@resort/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';
import type { Logger } from '../../platform/logger.ts';
import { deactivateService, removeService } from '../notification-services/notification-services.service.ts';
import type { Channels } from './channels/index.ts';
import { type AttemptResult, createDeliveryAttempt } from './delivery-attempt.ts';
import type { NewNotification } from './new-notification.ts';
import {
  type AttemptOutcome,
  claimDelivery,
  findNotificationId,
  insertNotificationsWithDeliveries,
  listNotificationHistory,
  pruneNotifications,
  readDeliveryFigures,
  recordOutcomes,
} from './notifications.repo.ts';
import type { RetryPolicy } from './retry-schedule.ts';

/** Notifications deleted per statement when pruning: short statements, short locks. */
const PRUNE_BATCH = 5000;

/** Recorded instead of an error text the database refused, so the attempt still counts. */
const UNRECORDABLE_ERROR = 'The delivery failed; the answer could not be recorded.';

/** One attempt of one delivery, named by the attempt's number (1-based). */
interface DeliverAttempt {
  deliveryId: string;
  attempt: number;
}

export function createNotificationsService(deps: {
  db: Database;
  channels: Pick<Channels, 'send'>;
  clock: { now(): Date };
  log: Logger;
  retryPolicy: RetryPolicy;
  leaseSeconds: number;
  /** Why a delivery is skipped rather than sent (delivery-attempt.ts), or null. */
  skipReason?: (d: { serviceId: string; type: string }) => Promise<string | null>;
}) {
  const { db, clock, log, leaseSeconds } = deps;
  const attempt = createDeliveryAttempt(deps);

  function withTimestamp(input: NewNotification) {
    return {
      ...input,
      metadata: { ...input.metadata, timestamp: input.metadata?.timestamp ?? clock.now().toISOString() },
    };
  }

  async function createOne(db: Database | Transaction<DB>, input: NewNotification) {
    const created = await insertNotificationsWithDeliveries(db, [withTimestamp(input)], clock.now());
    const id = created.get(input.eventKey);
    if (id) return { notificationId: id, created: true };
    return { notificationId: await findNotificationId(db, input.eventKey), created: false };
  }

  /** Records one deactivating outcome together with the deactivation, or neither. */
  function recordDeactivating(result: AttemptResult, outcome = result.outcome): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const recorded = await recordOutcomes(trx, [outcome]);
      if (!recorded.has(outcome.id)) return false;
      // An expired push subscription is deleted (its deliveries with it); other services are turned off.
      if (result.removeService) await removeService(trx, outcome.serviceId);
      else await deactivateService(trx, outcome.serviceId, result.deactivateReason!);
      return true;
    });
  }

  /**
   * Tries a record with the outcome as it is, then with the fallback error text: a row's data can
   * refuse its statement, and an unrecorded attempt would be sent again at every lease's end with
   * no back-off. The second failure (the database is away) is thrown.
   */
  async function withFallback<T>(outcome: AttemptOutcome, write: (o: AttemptOutcome) => Promise<T>) {
    try {
      return await write(outcome);
    } catch (err) {
      log.error(
        { err, deliveryId: outcome.id },
        'recording a delivery outcome failed; recorded without its error',
      );
      return write({ ...outcome, error: outcome.error === null ? null : UNRECORDABLE_ERROR });
    }
  }

  /** The plain outcomes in one statement; should it fail, row by row, so a bad row costs only itself. */
  async function recordPlain(outcomes: AttemptOutcome[]): Promise<Set<string>> {
    try {
      return await recordOutcomes(db, outcomes);
    } catch (err) {
      log.warn(
        { err, deliveries: outcomes.length },
        'recording delivery outcomes failed; recording them one by one',
      );
      const recorded = new Set<string>();
      for (const outcome of outcomes) {
        for (const id of await withFallback(outcome, (o) => recordOutcomes(db, [o]))) recorded.add(id);
      }
      return recorded;
    }
  }

  /**
   * Records attempts' outcomes: the plain ones in one statement, a deactivating one (410) in its own
   * transaction with the deactivation; a row the database refuses is recorded with a fallback error
   * text. Answers the ids recorded; an outcome whose claim was taken over is not recorded (the new
   * holder sends and records it).
   */
  async function recordAttempts(results: AttemptResult[]): Promise<Set<string>> {
    const plain = results.filter((r) => !r.deactivateReason);
    const recorded = await recordPlain(plain.map((r) => r.outcome));
    for (const r of results) {
      if (!r.deactivateReason) continue;
      if (await withFallback(r.outcome, (o) => recordDeactivating(r, o))) recorded.add(r.outcome.id);
    }
    for (const r of results) {
      if (!r.failure) continue;
      log.info(
        {
          deliveryId: r.outcome.id,
          attempt: r.outcome.previousAttempts + 1,
          error: r.failure.message,
          retryInSeconds: r.outcome.retryInSeconds,
        },
        'notification delivery attempt failed',
      );
    }
    return recorded;
  }

  return {
    /**
     * Records a notification and one PENDING delivery, due now, per active linked service, and wakes
     * the delivery workers, in one statement (in the caller's transaction, when given). Idempotent per event key.
     */
    createNotification(
      input: NewNotification,
      trx?: Transaction<DB>,
    ): Promise<{ notificationId: string; created: boolean }> {
      return createOne(trx ?? db, input);
    },

    /**
     * The engine's hand-off: many notifications (and their deliveries, and the wake-up) in one
     * statement, so a burst of matches is one round trip per write-back batch. Idempotent per event key.
     */
    async createNotifications(inputs: NewNotification[]): Promise<void> {
      await insertNotificationsWithDeliveries(db, inputs.map(withTimestamp), clock.now());
    },

    history(userId: string, input: NotificationHistoryInput): Promise<NotificationRecord[]> {
      return listNotificationHistory(db, userId, input?.limit ?? HISTORY_DEFAULT_LIMIT);
    },

    /** Sends one claimed delivery (the delivery worker's hands): the outcome, not yet recorded. */
    attempt,
    recordAttempts,

    /**
     * One attempt of one delivery now, whoever holds it: claim, send, record. Nothing happens when
     * the delivery is settled or that attempt is already recorded; a failed record throws (the send
     * happened: sending the same attempt again repeats it under the same webhook-id).
     */
    async deliver(job: DeliverAttempt): Promise<void> {
      const d = await claimDelivery(db, job.deliveryId, job.attempt - 1, randomUUID(), leaseSeconds);
      if (!d) return;
      const result = await attempt(d);
      const recorded = await recordAttempts([result]);
      if (!recorded.has(d.id)) throw new Error(`delivery ${d.id}: attempt ${job.attempt} was not recorded`);
    },

    /**
     * Deletes notifications older than `days` with their deliveries, in batches, keeping each
     * alert's latest (the maintenance job; docs/decisions.md, "Retention"). Answers how many.
     */
    async prune(days: number): Promise<number> {
      let pruned = 0;
      for (;;) {
        const n = await pruneNotifications(db, days, PRUNE_BATCH);
        pruned += n;
        if (n < PRUNE_BATCH) return pruned;
      }
    },

    /** The pool's delivery figures (GET /api/health). */
    figures(): Promise<DeliveryFigures> {
      return readDeliveryFigures(db);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
