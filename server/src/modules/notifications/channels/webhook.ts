import { renderBodyTemplate, type SlackConfig, type WebhookConfig } from '@resort/shared';
import { sendHttp } from './http-answer.ts';
import { modelOf } from './message-model.ts';
import type { OutboundRequester } from './outbound.ts';
import { signatureHeaders } from './signing.ts';
import type { ChannelMessage, ChannelSender, ChannelTarget } from './types.ts';

interface HttpChannelDeps {
  outbound: OutboundRequester;
  timeoutMs: number;
  now: () => Date;
  /** The app's public address, for the link to the alert's page. */
  publicUrl?: string | undefined;
}

/** The body a webhook sends: its rendered template (JSON when it parses), never a body on GET. */
function webhookBody(config: WebhookConfig, message: ChannelMessage) {
  if (config.method === 'GET') return { kind: 'none' as const };
  return renderBodyTemplate(config.bodyTemplate, {
    message: message.message,
    registrationId: message.alertId,
    templateId: message.templateId,
    metadata: message.metadata,
  });
}

/**
 * WEBHOOK: the configured method and headers (blank pairs dropped), the rendered body, and the
 * Standard Webhooks signature headers on every attempt (webhook-id stays the same across retries).
 */
export function createWebhookSender(deps: HttpChannelDeps): ChannelSender {
  return {
    async send(target: ChannelTarget, message: ChannelMessage) {
      const config = target.config as WebhookConfig;
      const body = webhookBody(config, message);
      const text = body.kind === 'none' ? '' : body.text;
      const headers: Record<string, string> = {};
      if (body.kind === 'json') headers['content-type'] = 'application/json';
      if (body.kind === 'text') headers['content-type'] = 'text/plain; charset=utf-8';
      for (const { name, value } of config.headers) {
        if (name.trim() === '' || value.trim() === '') continue;
        headers[name.trim().toLowerCase()] = value;
      }
      const timestamp = Math.floor(deps.now().getTime() / 1000);
      Object.assign(headers, signatureHeaders(target.signingSecret, message.id, timestamp, text));
      await sendHttp(
        deps.outbound,
        {
          url: config.url,
          method: config.method,
          headers,
          ...(body.kind === 'none' ? {} : { body: text }),
          timeoutMs: deps.timeoutMs,
        },
        'Webhook receiver',
        deps.now,
      );
      return { note: null };
    },
  };
}

/** SLACK_WEBHOOK: Slack's incoming-webhook payload, text plus optional channel and username. */
export function createSlackSender(deps: HttpChannelDeps): ChannelSender {
  return {
    async send(target: ChannelTarget, message: ChannelMessage) {
      const config = target.config as SlackConfig;
      // The message model in Slack's mrkdwn: the heading, what opened, and a link to the alert's page.
      const m = modelOf(message, deps.publicUrl);
      const heading = message.test ? 'Resort Alerts test' : m.heading;
      const link = m.link ? `\n<${m.link}|${m.linkLabel}>` : '';
      const payload: Record<string, string> = {
        text: `*${escapeSlack(heading)}*\n${escapeSlack(m.text)}${link}`,
      };
      if (config.channel) payload.channel = config.channel;
      if (config.username) payload.username = config.username;
      await sendHttp(
        deps.outbound,
        {
          url: config.url,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
          timeoutMs: deps.timeoutMs,
        },
        'Slack',
        deps.now,
      );
      return { note: null };
    },
  };
}

/** Slack reads &, < and > as control characters in message text. */
function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
