import type { NotificationServiceType } from '@resort/shared';
import type { Config } from '../../../config.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { VapidKeys } from '../vapid-keys.ts';
import { createEmailSender } from './email.ts';
import {
  createDiscordSender,
  createNtfySender,
  createPushoverSender,
  createTeamsSender,
  createTelegramSender,
} from './native.ts';
import type { OutboundRequester } from './outbound.ts';
import { type BrowserKeys, defaultReserveLimits, type ReserveCount } from './push-sealer.ts';
import { createLogSmsProvider, createSmsSender, createTwilioProvider } from './sms.ts';
import type { ChannelMessage, ChannelSender, ChannelTarget, SendResult } from './types.ts';
import { createWebPushSender } from './web-push.ts';
import { createSlackSender, createWebhookSender } from './webhook.ts';

export type { ChannelMessage, ChannelTarget, SendResult } from './types.ts';
export { DeliveryError } from './types.ts';

/** The most browsers whose push keys a worker prepares at its start: each gets at least one key. */
export const preparedBrowsersAtMost = defaultReserveLimits.keysInAll;

/** One sender per channel type; `send` picks the one the target needs. */
export function createChannels(deps: {
  config: Pick<
    Config,
    | 'SMTP_URL'
    | 'SMTP_FROM'
    | 'SMS_API_URL'
    | 'SMS_ACCOUNT_SID'
    | 'SMS_AUTH_TOKEN'
    | 'SMS_FROM'
    | 'DELIVERY_TIMEOUT_MS'
    | 'SMTP_POOL_SIZE'
    | 'PUBLIC_URL'
    | 'PUSHOVER_API_URL'
    | 'TELEGRAM_API_URL'
    | 'VAPID_SUBJECT'
  >;
  /** The Web Push key pair (vapid-keys.ts). */
  vapid: VapidKeys;
  outbound: OutboundRequester;
  log: Logger;
  clock: Clock;
}) {
  const { config, outbound, log, clock } = deps;
  const timeoutMs = config.DELIVERY_TIMEOUT_MS;
  const now = () => clock.now();
  const smsProvider =
    config.SMS_API_URL && config.SMS_ACCOUNT_SID && config.SMS_AUTH_TOKEN && config.SMS_FROM
      ? createTwilioProvider({
          outbound,
          apiUrl: config.SMS_API_URL,
          accountSid: config.SMS_ACCOUNT_SID,
          authToken: config.SMS_AUTH_TOKEN,
          from: config.SMS_FROM,
          timeoutMs,
        })
      : createLogSmsProvider(log);
  const email = createEmailSender({
    smtpUrl: config.SMTP_URL,
    from: config.SMTP_FROM,
    timeoutMs,
    poolSize: config.SMTP_POOL_SIZE,
    log,
    publicUrl: config.PUBLIC_URL,
  });
  // Webhooks and Slack go through the outbound client's shared agent: kept-alive connections per origin.
  // Native channels: the same outbox and guarded client; the message model rendered their way.
  const native = { outbound, timeoutMs, now, publicUrl: config.PUBLIC_URL };
  const webPush = createWebPushSender({ ...native, vapid: deps.vapid, subject: config.VAPID_SUBJECT });
  const senders: Record<NotificationServiceType, ChannelSender> = {
    WEBHOOK: createWebhookSender({ outbound, timeoutMs, now }),
    SLACK_WEBHOOK: createSlackSender({ outbound, timeoutMs, now, publicUrl: config.PUBLIC_URL }),
    EMAIL: email,
    SMS: createSmsSender(smsProvider, config.PUBLIC_URL),
    NTFY: createNtfySender(native),
    PUSHOVER: createPushoverSender({ ...native, apiUrl: config.PUSHOVER_API_URL }),
    TELEGRAM: createTelegramSender({ ...native, apiUrl: config.TELEGRAM_API_URL }),
    DISCORD: createDiscordSender(native),
    TEAMS: createTeamsSender(native),
    WEB_PUSH: webPush,
  };
  return {
    send(target: ChannelTarget, message: ChannelMessage): Promise<SendResult> {
      return senders[target.type].send(target, message);
    },
    /**
     * Starts the push sealer's threads before the first push (the worker does so when a browser is
     * subscribed), so the first burst after a start does not wait for them to load, and has them
     * prepare keys for the browsers named (most recently subscribed last).
     */
    async startPushSealer(browsers: readonly BrowserKeys[]): Promise<void> {
      await webPush.start();
      webPush.prepare(browsers);
    },
    /** The browsers the push sealer keeps keys prepared for, and the keys ready. */
    pushReserves(): ReserveCount {
      return webPush.reserves();
    },
    /** Closes the pooled SMTP connections and the push sealer's threads. */
    async close(): Promise<void> {
      email.close();
      await webPush.close();
    },
  };
}

export type Channels = ReturnType<typeof createChannels>;
