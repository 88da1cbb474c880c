import { randomUUID } from 'node:crypto';
import {
  type CreateNotificationServiceInput,
  isMaskedSecret,
  messages,
  type NotificationService,
  type NotificationServiceConfig,
  type NotificationServiceType,
  notificationConfigSchemas,
  notificationMessages,
  type QuietHours,
  quietHoursMessages,
  secretConfigFields,
  type TestNotificationResult,
  type TestNotificationServiceInput,
  type UpdateNotificationServiceInput,
  type WebPushKey,
} from '@resort/shared';
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError, isUniqueViolation } from '../../platform/errors.ts';
import { OutboundError } from '../../platform/outbound/outbound-error.ts';
import { type RateLimiterFactory, reserveAll } from '../../platform/rate-limiter.ts';
import { type Channels, DeliveryError } from '../notifications/channels/index.ts';
import { newSigningSecret } from '../notifications/channels/signing.ts';
import { createChannelVerification } from './channel-verification.ts';
import {
  deleteOwnedService,
  findOwnedService,
  insertService,
  listNotificationServicesForUser,
  pushBrowserKeys,
  toNotificationService,
  updateOwnedService,
} from './notification-services.repo.ts';
import { findQuietHours, saveQuietHours } from './quiet-hours.repo.ts';

/** Throws OutboundError for a destination URL the outbound guard would refuse (engine/channels/destination.ts). */
/**
 * What other modules may do to a user's services inside their own transaction: notifications
 * deactivate a service its destination retired (410), the account summary lists them.
 */
export {
  deactivateService,
  listNotificationServicesForUser,
  removeService,
} from './notification-services.repo.ts';

export type DestinationCheck = (url: string) => Promise<void>;

const ONE_PER_TYPE_INDEX = 'notification_services_one_per_type';
/** Test sends reach real receivers; a user may not turn them into a request cannon. */
const TEST_SENDS_PER_TEN_MINUTES = 30;

/** The types whose URL the user gives: checked by the outbound guard when saved or tested. */
const userUrlTypes: readonly NotificationServiceType[] = [
  'WEBHOOK',
  'SLACK_WEBHOOK',
  'NTFY',
  'DISCORD',
  'TEAMS',
];

function destinationUrl(type: NotificationServiceType, config: NotificationServiceConfig): string | null {
  if (type === 'WEB_PUSH') return (config as { endpoint: string }).endpoint;
  return userUrlTypes.includes(type) ? (config as { url: string }).url : null;
}

/**
 * A masked secret sent back (the form shows what the list returned) keeps the stored value of the
 * same type; one left masked with nothing stored behind it is refused.
 */
function withStoredSecrets<C extends NotificationServiceConfig>(
  type: NotificationServiceType,
  config: C,
  stored: { type: string; config: unknown } | undefined,
): C {
  const result = { ...config } as Record<string, unknown>;
  const from = stored?.type === type ? (stored.config as Record<string, unknown>) : {};
  for (const field of secretConfigFields[type] ?? []) {
    if (!isMaskedSecret(result[field])) continue;
    if (typeof from[field] !== 'string')
      throw new AppError('BAD_REQUEST', notificationMessages.secretMaskedOnCreate);
    result[field] = from[field];
  }
  return result as C;
}

export function createNotificationServicesService(deps: {
  db: Database;
  channels: Pick<Channels, 'send'>;
  checkDestination: DestinationCheck;
  clock: Clock;
  rateLimits: RateLimiterFactory;
  /** E-mails or texts one channel receives an hour at most (CHANNEL_SENDS_PER_HOUR). */
  sendsPerHour: number;
  /** The VAPID public key browsers subscribe to push with. */
  webPushPublicKey: string;
}) {
  const { db, channels, clock } = deps;
  const verification = createChannelVerification(deps);
  const testLimiter = deps.rateLimits({
    name: 'test-send',
    points: TEST_SENDS_PER_TEN_MINUTES,
    windowSeconds: 10 * 60,
  });

  async function assertDestinationAllowed(type: NotificationServiceType, config: NotificationServiceConfig) {
    const url = destinationUrl(type, config);
    if (!url) return;
    try {
      await deps.checkDestination(url);
    } catch (error) {
      if (error instanceof OutboundError) throw new AppError('BAD_REQUEST', error.message);
      throw error;
    }
  }

  async function requireOwned(userId: string, id: string) {
    const row = await findOwnedService(db, userId, id);
    if (!row) throw new AppError('NOT_FOUND', notificationMessages.serviceNotFound);
    return row;
  }

  /** The stored type's config schema; parsed under `config` so issue paths read as in the create call. */
  function parseConfig(type: NotificationServiceType, config: unknown): NotificationServiceConfig {
    return z.object({ config: notificationConfigSchemas[type] }).parse({ config }).config;
  }

  async function update(userId: string, input: UpdateNotificationServiceInput): Promise<NotificationService> {
    const row = await requireOwned(userId, input.id);
    const type = row.type as NotificationServiceType;
    if (input.type !== undefined && input.type !== type)
      throw new AppError('BAD_REQUEST', notificationMessages.typeUnchangeable);
    const config =
      input.config === undefined ? undefined : withStoredSecrets(type, parseConfig(type, input.config), row);
    if (config) await assertDestinationAllowed(type, config);
    const updated = await updateOwnedService(db, userId, input.id, {
      label: input.label === undefined ? undefined : input.label || null,
      config,
      isActive: input.isActive,
      // Turning a service back on clears why it was turned off.
      deactivatedReason: input.isActive === true ? null : undefined,
    });
    if (!updated) throw new AppError('NOT_FOUND', notificationMessages.serviceNotFound);
    const moved = config !== undefined && JSON.stringify(config) !== JSON.stringify(row.config);
    return toNotificationService(moved ? await verification.settle(userId, updated) : updated);
  }

  return {
    list: (userId: string) => listNotificationServicesForUser(db, userId),

    webPushKey: (): WebPushKey => ({ publicKey: deps.webPushPublicKey }),

    /**
     * The browsers subscribed to push (their keys, at most `limit`, most recently subscribed last):
     * the worker starts its push sealer early and prepares their keys.
     */
    pushBrowsers: (limit: number) => pushBrowserKeys(db, limit),

    quietHours: (userId: string) => findQuietHours(db, userId),

    /** Saves the user's quiet hours; the channels it names must be the user's own. */
    async setQuietHours(userId: string, input: QuietHours): Promise<QuietHours> {
      if (input.serviceIds) {
        const own = new Set((await listNotificationServicesForUser(db, userId)).map((s) => s.id));
        if (input.serviceIds.some((id) => !own.has(id)))
          throw new AppError('BAD_REQUEST', quietHoursMessages.serviceNotYours);
      }
      await saveQuietHours(db, userId, input);
      return findQuietHours(db, userId);
    },

    async create(userId: string, input: CreateNotificationServiceInput): Promise<NotificationService> {
      withStoredSecrets(input.type, input.config, undefined);
      await assertDestinationAllowed(input.type, input.config);
      try {
        const row = await insertService(db, {
          userId,
          type: input.type,
          label: input.label,
          config: input.config,
          signingSecret: newSigningSecret(),
        });
        return toNotificationService(await verification.settle(userId, row));
      } catch (error) {
        if (isUniqueViolation(error, ONE_PER_TYPE_INDEX))
          throw new AppError('CONFLICT', notificationMessages.channelAlreadyConfigured(input.type));
        throw error;
      }
    },

    update,

    sendVerificationCode: verification.sendCode,
    verify: verification.confirm,
    /** For the delivery attempt: why a delivery is skipped (unverified, over the hourly cap), or null. */
    skipReason: verification.skipReason,

    setActive: (userId: string, id: string, isActive: boolean) => update(userId, { id, isActive }),

    async remove(userId: string, id: string): Promise<void> {
      if (!(await deleteOwnedService(db, userId, id)))
        throw new AppError('NOT_FOUND', notificationMessages.serviceNotFound);
    },

    async rotateSecret(userId: string, id: string): Promise<NotificationService> {
      await requireOwned(userId, id);
      const updated = await updateOwnedService(db, userId, id, { signingSecret: newSigningSecret() });
      if (!updated) throw new AppError('NOT_FOUND', notificationMessages.serviceNotFound);
      return toNotificationService(updated);
    },

    /**
     * Sends a real test message through the channel as configured in the form; records nothing.
     * A saved service named by `id` lends its signing secret, so the receiver can verify the test.
     */
    async test(userId: string, input: TestNotificationServiceInput): Promise<TestNotificationResult> {
      await reserveAll([[testLimiter, userId]], messages.common.rateLimited);
      const saved = input.id ? await requireOwned(userId, input.id) : undefined;
      await verification.assertTestAllowed(userId, input);
      const config = withStoredSecrets(input.type, input.config, saved);
      await assertDestinationAllowed(input.type, config);
      const now = clock.now();
      try {
        const result = await channels.send(
          {
            type: input.type,
            label: input.label,
            config,
            signingSecret: saved?.signing_secret ?? newSigningSecret(),
          },
          {
            id: `test_${randomUUID()}`,
            message: 'This is a test notification from Resort Alerts. Your channel works.',
            alertId: null,
            templateId: null,
            title: null,
            partyName: null,
            metadata: { timestamp: now.toISOString(), test: true },
            test: true,
            urgent: false,
          },
        );
        return { message: result.note ?? notificationMessages.testDispatched };
      } catch (error) {
        if (!(error instanceof DeliveryError)) throw error;
        throw new AppError(
          error.badDestination ? 'BAD_REQUEST' : 'BAD_GATEWAY',
          `${notificationMessages.testFailed} ${error.message}`,
        );
      }
    },
  };
}
