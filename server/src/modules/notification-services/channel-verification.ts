import { createHash, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  type EmailConfig,
  channelVerificationMessages as m,
  type NotificationService,
  type NotificationServiceConfig,
  type NotificationServiceType,
  needsVerification,
  notificationMessages,
  type SmsConfig,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import type { NotificationServiceRow } from '../../db/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { type RateLimiterFactory, reserveAll } from '../../platform/rate-limiter.ts';
import { type Channels, DeliveryError } from '../notifications/channels/index.ts';
import { findOwnedService, toNotificationService, verificationOf } from './notification-services.repo.ts';
import * as repo from './verification.repo.ts';

const CODE_TTL_MS = 30 * 60 * 1000;
const CODE_ATTEMPTS = 5;
const CODES_PER_HOUR_PER_CHANNEL = 5;
const CODES_PER_HOUR_PER_ACCOUNT = 20;

/** The address or number a channel sends to, compared case-insensitively. */
export function destinationOf(type: string, config: unknown): string | null {
  if (type === 'EMAIL') return (config as EmailConfig).toEmail.trim().toLowerCase();
  if (type === 'SMS') return (config as SmsConfig).toNumber.trim();
  return null;
}

const hashCode = (serviceId: string, code: string) =>
  createHash('sha256').update(`${serviceId}:${code}`).digest('base64url');

/**
 * E-mail and SMS channels are verified before anything but their code is sent to them, and capped
 * per hour once they are (docs/product.md, "Notifying and delivery"): neither can be turned into a
 * relay that mails or texts strangers.
 */
export function createChannelVerification(deps: {
  db: Database;
  channels: Pick<Channels, 'send'>;
  clock: Clock;
  rateLimits: RateLimiterFactory;
  sendsPerHour: number;
}) {
  const { db, channels, clock } = deps;
  const perChannel = deps.rateLimits({
    name: 'verify-channel',
    points: CODES_PER_HOUR_PER_CHANNEL,
    windowSeconds: 3600,
  });
  const perAccount = deps.rateLimits({
    name: 'verify-account',
    points: CODES_PER_HOUR_PER_ACCOUNT,
    windowSeconds: 3600,
  });
  const hourlyCap = deps.rateLimits({
    name: 'channel-sends',
    points: deps.sendsPerHour,
    windowSeconds: 3600,
  });

  async function requireOwned(userId: string, id: string) {
    const row = await findOwnedService(db, userId, id);
    if (!row) throw new AppError('NOT_FOUND', notificationMessages.serviceNotFound);
    return row;
  }

  /** Whether the destination is the account's own verified address. */
  async function isAccountAddress(userId: string, type: string, config: unknown): Promise<boolean> {
    if (type !== 'EMAIL') return false;
    const email = await repo.findVerifiedAccountEmail(db, userId);
    return email !== null && email.toLowerCase() === destinationOf(type, config);
  }

  return {
    /**
     * A channel just saved with a new destination: verified when it is the account's own verified
     * address, else unverified until its code is entered.
     */
    async settle(userId: string, row: NotificationServiceRow): Promise<NotificationServiceRow> {
      if (!needsVerification(row.type)) return row;
      if (await isAccountAddress(userId, row.type, row.config)) {
        await repo.markVerified(db, row.id, 'account');
      } else {
        await repo.clearVerification(db, row.id);
      }
      return (await findOwnedService(db, userId, row.id)) ?? row;
    },

    async sendCode(userId: string, id: string): Promise<{ message: string }> {
      const row = await requireOwned(userId, id);
      if (!needsVerification(row.type)) throw new AppError('BAD_REQUEST', m.notNeeded);
      if (verificationOf(row) === 'verified') throw new AppError('BAD_REQUEST', m.alreadyVerified);
      await reserveAll(
        [
          [perChannel, id],
          [perAccount, userId],
        ],
        m.tooManyCodes,
      );
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await repo.storeCode(db, id, hashCode(id, code), new Date(clock.now().getTime() + CODE_TTL_MS));
      try {
        const result = await channels.send(
          {
            type: row.type as NotificationServiceType,
            label: row.label,
            config: row.config as unknown as NotificationServiceConfig,
            signingSecret: row.signing_secret,
          },
          {
            id: `verify_${randomUUID()}`,
            message: `Your Resort Alerts verification code is ${code}. It expires in 30 minutes. If you did not add this channel, ignore this message.`,
            alertId: null,
            templateId: null,
            title: 'Verify this channel',
            partyName: null,
            metadata: { timestamp: clock.now().toISOString() },
            test: false,
            urgent: false,
          },
        );
        return { message: result.note ? `${m.codeSent} ${result.note}` : m.codeSent };
      } catch (error) {
        if (!(error instanceof DeliveryError)) throw error;
        throw new AppError('BAD_GATEWAY', `${notificationMessages.testFailed} ${error.message}`);
      }
    },

    async confirm(userId: string, id: string, code: string): Promise<NotificationService> {
      const row = await requireOwned(userId, id);
      if (verificationOf(row) === 'verified') return toNotificationService(row);
      const stored = await repo.takeCodeAttempt(db, id, userId, CODE_ATTEMPTS);
      const given = Buffer.from(hashCode(id, code));
      const expected = Buffer.from(stored?.verification_code_hash ?? '');
      if (!stored || given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new AppError('BAD_REQUEST', m.codeWrong);
      await repo.markVerified(db, id, 'code');
      // A code read from the account's own address verifies that address too.
      const account = await db
        .selectFrom('users')
        .select('email')
        .where('id', '=', userId)
        .executeTakeFirst();
      if (account && destinationOf(row.type, row.config) === account.email.toLowerCase()) {
        await repo.markAccountEmailVerified(db, userId);
        await repo.verifyAccountEmailChannels(db, userId);
      }
      return toNotificationService(await requireOwned(userId, id));
    },

    /**
     * A test send of an e-mail or SMS form goes only where the channel is verified: the saved,
     * verified channel itself (same destination), or the account's own verified address.
     */
    async assertTestAllowed(
      userId: string,
      input: { id?: string | undefined; type: string; config: unknown },
    ): Promise<void> {
      if (!needsVerification(input.type)) return;
      if (await isAccountAddress(userId, input.type, input.config)) return;
      const saved = input.id ? await findOwnedService(db, userId, input.id) : undefined;
      const sameDestination =
        saved && destinationOf(saved.type, saved.config) === destinationOf(input.type, input.config);
      if (!saved || !sameDestination || verificationOf(saved) === 'unverified')
        throw new AppError('BAD_REQUEST', m.testNeedsVerification);
    },

    /**
     * Why a delivery to this channel is skipped, or null to send it: unverified, or over its hourly
     * cap (each send counts, shared by every process).
     */
    async skipReason(d: { serviceId: string; type: string }): Promise<string | null> {
      if (!needsVerification(d.type)) return null;
      const row = await repo.findServiceVerification(db, d.serviceId);
      if (!row?.verified_at) return m.skippedUnverified;
      const taken = await hourlyCap.take(d.serviceId);
      return 'retryAfterSeconds' in taken ? m.skippedOverCap(deps.sendsPerHour) : null;
    },
  };
}

export type ChannelVerificationService = ReturnType<typeof createChannelVerification>;
