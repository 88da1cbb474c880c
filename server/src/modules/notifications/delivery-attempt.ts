import {
  type NotificationServiceConfig,
  type NotificationServiceType,
  notificationMessages,
} from '@resort/shared';
import type { Logger } from '../../platform/logger.ts';
import { type Channels, DeliveryError } from './channels/index.ts';
import type { AttemptOutcome, DeliveryForSend } from './notifications.repo.ts';
import { nextDelaySeconds, type RetryPolicy } from './retry-schedule.ts';

/**
 * A delivery held for quiet hours that carries others: one message listing every opening of the
 * window, oldest first; null for any other delivery (a held one alone is sent as itself).
 */
export function digestOf(
  d: Pick<DeliveryForSend, 'message' | 'digest'>,
): { title: string; message: string } | null {
  if (d.digest.length === 0) return null;
  const messages = [d.message, ...d.digest.map((m) => m.message)];
  return {
    title: `${messages.length} openings during quiet hours`,
    message: messages.map((m) => `• ${m}`).join('\n'),
  };
}

/** One attempt's result: the outcome to record, and what else it asks for. */
export interface AttemptResult {
  outcome: AttemptOutcome;
  /** The receiver failed (not a refusal for good): its destination should be given a rest. */
  destinationFailed: boolean;
  /** Set when the service must be deactivated (410 Gone), with the reason to record. */
  deactivateReason: string | null;
  /** Set when the service must be deleted (an expired push subscription). */
  removeService: boolean;
  failure: DeliveryError | null;
}

/**
 * Sends one claimed delivery and decides its outcome: SUCCESS; a retry after the schedule's delay (at
 * least what a Retry-After asked); FAILURE when the attempts are used up or retrying cannot help. A
 * fault of ours (not a DeliveryError) is logged and retried like a receiver's failure.
 */
export function createDeliveryAttempt(deps: {
  channels: Pick<Channels, 'send'>;
  retryPolicy: RetryPolicy;
  log: Logger;
  /**
   * Why this delivery must not be sent (an unverified e-mail or SMS channel, one over its hourly
   * cap), or null: the notification-services module decides; the attempt records the reason.
   */
  skipReason?: (d: { serviceId: string; type: string }) => Promise<string | null>;
}) {
  const { channels, retryPolicy, log } = deps;
  return async function attempt(d: DeliveryForSend): Promise<AttemptResult> {
    const attemptNo = d.attempts + 1;
    let failure: DeliveryError | null = null;
    const skipped = d.serviceActive ? await deps.skipReason?.(d) : null;
    if (!d.serviceActive) {
      failure = new DeliveryError(notificationMessages.serviceInactive, { permanent: true });
    } else if (skipped) {
      failure = new DeliveryError(skipped, { permanent: true });
    } else {
      try {
        const digest = digestOf(d);
        await channels.send(
          {
            type: d.type as NotificationServiceType,
            label: d.label,
            config: d.config as NotificationServiceConfig,
            signingSecret: d.signingSecret,
          },
          {
            // The delivery's id: the same webhook-id (and e-mail Message-ID) on every attempt.
            id: d.id,
            message: digest?.message ?? d.message,
            alertId: digest ? null : d.alertId,
            templateId: digest ? null : d.templateId,
            title: digest?.title ?? d.title ?? d.partyName,
            partyName: digest ? null : d.partyName,
            metadata: {
              ...d.metadata,
              timestamp: String(d.metadata.timestamp ?? d.notificationCreatedAt.toISOString()),
            },
            test: false,
            urgent: d.urgent,
          },
        );
      } catch (error) {
        if (error instanceof DeliveryError) failure = error;
        else {
          log.error({ err: error, deliveryId: d.id }, 'notification delivery failed unexpectedly');
          failure = new DeliveryError('The delivery failed because of an internal error.', { cause: error });
        }
      }
    }
    const retryInSeconds =
      failure && !failure.permanent
        ? nextDelaySeconds(retryPolicy, attemptNo, { retryAfterSeconds: failure.retryAfterSeconds })
        : null;
    return {
      outcome: {
        id: d.id,
        serviceId: d.serviceId,
        claimToken: d.claimToken,
        previousAttempts: d.attempts,
        status: !failure ? 'SUCCESS' : retryInSeconds === null ? 'FAILURE' : 'PENDING',
        // A delivery of a service deactivated since the event, or skipped, was not attempted.
        attempts: d.serviceActive && !skipped ? attemptNo : d.attempts,
        error: failure?.message ?? null,
        retryInSeconds: retryInSeconds === null ? null : Number(retryInSeconds.toFixed(3)),
        delivered: failure === null,
        carriesDigest: d.digest.length > 0,
      },
      destinationFailed: failure !== null && !failure.permanent,
      deactivateReason: failure?.deactivateReason ?? null,
      removeService: failure?.removeService ?? false,
      failure,
    };
  };
}
