import type { SmsConfig } from '@resort/shared';
import type { Logger } from '../../../platform/logger.ts';
import { modelOf } from './message-model.ts';
import { type OutboundRequester, toOutboundFailure } from './outbound.ts';
import { type ChannelMessage, type ChannelSender, type ChannelTarget, DeliveryError } from './types.ts';

/** An SMS provider: sends one text, or throws a DeliveryError. */
interface SmsProvider {
  send(to: string, body: string): Promise<{ note: string | null }>;
}

/** Twilio's limit for one message body (it splits it into segments itself). */
const MAX_SMS_LENGTH = 1600;

/** The message model in a text: the heading, what opened, and the alert's page. */
function composeSms(message: ChannelMessage, publicUrl: string | undefined): string {
  const m = modelOf(message, publicUrl);
  const heading = message.test ? 'Resort Alerts test' : `Resort Alerts: ${m.heading}`;
  const text = [heading, m.text, ...(m.link ? [m.link] : [])].join('\n');
  return text.length > MAX_SMS_LENGTH ? `${text.slice(0, MAX_SMS_LENGTH - 1)}…` : text;
}

/**
 * A Twilio-compatible adapter: POST {SMS_API_URL}/2010-04-01/Accounts/{SID}/Messages.json with a
 * form body (To, From, Body) and basic auth, through the guarded outbound client.
 */
export function createTwilioProvider(deps: {
  outbound: OutboundRequester;
  apiUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  timeoutMs: number;
}): SmsProvider {
  const base = deps.apiUrl.replace(/\/+$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(deps.accountSid)}/Messages.json`;
  const auth = Buffer.from(`${deps.accountSid}:${deps.authToken}`).toString('base64');
  return {
    async send(to, body) {
      let response: Awaited<ReturnType<OutboundRequester['request']>>;
      try {
        response = await deps.outbound.request({
          url,
          method: 'POST',
          headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: to, From: deps.from, Body: body }).toString(),
          timeoutMs: deps.timeoutMs,
          maxBytes: 64 * 1024,
        });
      } catch (error) {
        throw toOutboundFailure(error);
      }
      if (response.status >= 200 && response.status < 300) return { note: null };
      const detail = (response.json as { message?: unknown } | undefined)?.message;
      const reason = typeof detail === 'string' ? detail : `it answered ${response.status}`;
      // 400 is the provider refusing this message (e.g. an invalid number): sending it again cannot help.
      throw new DeliveryError(`The SMS provider refused the message: ${reason}`, {
        permanent: response.status === 400,
      });
    },
  };
}

/** Without a provider, texts go to the log (said once at start-up). */
export function createLogSmsProvider(log: Logger): SmsProvider {
  log.warn('SMS_API_URL is not set: SMS notifications are written to the log, not sent');
  return {
    async send(to, body) {
      log.info({ to, body }, 'SMS notification (log transport)');
      return {
        note: 'No SMS provider is configured: the text was written to the server log instead of being sent.',
      };
    },
  };
}

export function createSmsSender(provider: SmsProvider, publicUrl?: string): ChannelSender {
  return {
    send(target: ChannelTarget, message: ChannelMessage) {
      return provider.send((target.config as SmsConfig).toNumber, composeSms(message, publicUrl));
    },
  };
}
