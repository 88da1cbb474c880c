import {
  HISTORY_DEFAULT_LIMIT,
  type NotificationHistoryInput,
  type NotificationRecord,
  type NotificationServiceConfig,
  type NotificationServiceType,
  notificationMessages,
} from '@resort/shared';
import type { Transaction } from 'kysely';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';
import { type Channels, DeliveryError } from '../../engine/channels/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { deactivateService } from '../notification-services/notification-services.repo.ts';
import { type DeliverJob, enqueueFirstAttempts, enqueueRetry } from './notifications.jobs.ts';
import {
  findActiveLinkedServiceIds,
  findDeliveryForSend,
  insertNotificationOnce,
  insertPendingDeliveries,
  listNotificationHistory,
  recordAttempt,
} from './notifications.repo.ts';
import { nextDelaySeconds, type RetryPolicy } from './retry-schedule.ts';

export interface NewNotification {
  userId: string;
  registrationId: string;
  /** One match event, one key: a second call with the same key creates nothing. */
  eventKey: string;
  message: string;
  metadata?: Record<string, unknown>;
}

export function createNotificationsService(deps: {
  db: Database;
  boss: PgBoss | null;
  channels: Pick<Channels, 'send'>;
  clock: Clock;
  log: Logger;
  retryPolicy: RetryPolicy;
  timeoutMs: number;
}) {
  const { db, channels, clock, log, retryPolicy, timeoutMs } = deps;

  function requireBoss(): PgBoss {
    if (!deps.boss) throw new Error('pg-boss is not running: notifications cannot be delivered');
    return deps.boss;
  }

  async function createInTransaction(trx: Transaction<DB>, input: NewNotification) {
    const metadata = { ...input.metadata, timestamp: input.metadata?.timestamp ?? clock.now().toISOString() };
    const notification = await insertNotificationOnce(trx, { ...input, metadata });
    if (!notification.created) return { notificationId: notification.id, created: false };
    const serviceIds = await findActiveLinkedServiceIds(trx, input.registrationId, input.userId);
    const deliveryIds = await insertPendingDeliveries(trx, notification.id, input.userId, serviceIds);
    await enqueueFirstAttempts(requireBoss(), trx, deliveryIds, timeoutMs);
    return { notificationId: notification.id, created: true };
  }

  return {
    /**
     * Records a notification and one PENDING delivery per active linked service, and enqueues one
     * job per delivery, all in one transaction (the caller's, when given). Idempotent per event key.
     */
    createNotification(
      input: NewNotification,
      trx?: Transaction<DB>,
    ): Promise<{ notificationId: string; created: boolean }> {
      if (trx) return createInTransaction(trx, input);
      return db.transaction().execute((t) => createInTransaction(t, input));
    },

    history(userId: string, input: NotificationHistoryInput): Promise<NotificationRecord[]> {
      return listNotificationHistory(db, userId, input?.limit ?? HISTORY_DEFAULT_LIMIT);
    },

    /**
     * One attempt of one delivery: send, then record the outcome and (on a retryable failure)
     * schedule the next attempt in one transaction. A job replayed after a crash finds its attempt
     * recorded and stops; a crash between send and record resends with the same webhook-id.
     */
    async deliver(job: DeliverJob): Promise<void> {
      const d = await findDeliveryForSend(db, job.deliveryId);
      // Gone with its service or notification, already settled, or this attempt already recorded.
      if (d?.status !== 'PENDING' || d.attempts !== job.attempt - 1) return;

      const startedAt = clock.now();
      let failure: DeliveryError | null = null;
      if (!d.serviceActive) {
        failure = new DeliveryError(notificationMessages.serviceInactive, { permanent: true });
      } else {
        try {
          await channels.send(
            {
              type: d.type as NotificationServiceType,
              label: d.label,
              config: d.config as unknown as NotificationServiceConfig,
              signingSecret: d.signingSecret,
            },
            {
              id: d.id,
              message: d.message,
              registrationId: d.registrationId,
              templateId: d.templateId,
              title: d.title ?? d.partyName,
              partyName: d.partyName,
              metadata: {
                ...d.metadata,
                timestamp: String(d.metadata.timestamp ?? d.notificationCreatedAt.toISOString()),
              },
              test: false,
            },
          );
        } catch (error) {
          if (!(error instanceof DeliveryError)) throw error;
          failure = error;
        }
      }

      const attempts = d.serviceActive ? job.attempt : d.attempts;
      const delay =
        failure && !failure.permanent
          ? nextDelaySeconds(retryPolicy, job.attempt, { retryAfterSeconds: failure.retryAfterSeconds })
          : null;
      await db.transaction().execute(async (trx) => {
        const recorded = await recordAttempt(trx, d.id, job.attempt - 1, {
          status: !failure ? 'SUCCESS' : delay === null ? 'FAILURE' : 'PENDING',
          attempts,
          error: failure?.message ?? null,
          nextAttemptAt: delay === null ? null : new Date(startedAt.getTime() + delay * 1000),
          dispatchedAt: failure ? null : clock.now(),
        });
        if (!recorded) return;
        if (failure?.deactivateReason) await deactivateService(trx, d.serviceId, failure.deactivateReason);
        if (delay !== null) {
          await enqueueRetry(
            requireBoss(),
            trx,
            { deliveryId: d.id, attempt: job.attempt + 1 },
            delay,
            timeoutMs,
          );
        }
      });
      if (failure) {
        log.info(
          { deliveryId: d.id, attempt: job.attempt, error: failure.message, retryInSeconds: delay },
          'notification delivery attempt failed',
        );
      }
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
