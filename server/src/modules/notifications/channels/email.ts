import type { EmailConfig } from '@resort/shared';
import nodemailer from 'nodemailer';
import type { Logger } from '../../../platform/logger.ts';
import { modelOf } from './message-model.ts';
import { type ChannelMessage, type ChannelSender, type ChannelTarget, DeliveryError } from './types.ts';

interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * A readable message in both plain text and HTML, rendered from the message model: the alert's message
 * first, then the facts and the link to the alert's page.
 */
function composeEmail(message: ChannelMessage, publicUrl: string | undefined): EmailContent {
  const { heading, facts, link, linkLabel } = modelOf(message, publicUrl);
  const footer = message.test
    ? 'You asked Resort Alerts to send this test to check that this channel works.'
    : 'You receive this because this address is a notification channel of your Resort Alerts account.';

  const text = [
    heading,
    '',
    message.message,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    ...(link ? ['', `${linkLabel}: ${link}`] : []),
    '',
    '--',
    footer,
    '',
  ].join('\n');
  const rows = facts
    .map(
      ([k, v]) =>
        `<tr><td style="padding:2px 12px 2px 0;color:#555">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1a1a1a;line-height:1.5">
<h2 style="margin:0 0 12px">${escapeHtml(heading)}</h2>
<p style="white-space:pre-wrap;margin:0 0 16px">${escapeHtml(message.message)}</p>
<table style="border-collapse:collapse;font-size:14px">${rows}</table>${
    link ? `\n<p style="margin-top:16px"><a href="${escapeHtml(link)}">${escapeHtml(linkLabel)}</a></p>` : ''
  }
<p style="margin-top:24px;font-size:12px;color:#777">${escapeHtml(footer)}</p>
</body></html>`;
  return { subject: `Resort Alerts: ${heading}`, text, html };
}

/** The plain-language reason an SMTP send failed; a 5xx reply is permanent, anything else may pass later. */
function toDeliveryError(error: unknown): DeliveryError {
  const e = error as { responseCode?: number; response?: string; code?: string; message?: string };
  if (typeof e.responseCode === 'number') {
    const reply = (e.response ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
    return new DeliveryError(`The e-mail server refused the message: ${reply || e.responseCode}`, {
      permanent: e.responseCode >= 500 && e.code !== 'EAUTH',
      cause: error,
    });
  }
  const detail = e.code === 'ETIMEDOUT' ? 'it did not answer in time' : (e.code ?? 'connection failed');
  return new DeliveryError(`Could not reach the e-mail server (${detail}).`, { cause: error });
}

/**
 * EMAIL: nodemailer over SMTP_URL, through a pool of SMTP connections (SMTP_POOL_SIZE). Without SMTP_URL, messages are written to the log (said once at
 * start-up), and the user is told so.
 */
export function createEmailSender(deps: {
  smtpUrl: string | undefined;
  from: string;
  timeoutMs: number;
  /** Pooled connections, each reused for message after message. */
  poolSize: number;
  log: Logger;
  /** The app's public address, for the link to the alert's page. */
  publicUrl?: string | undefined;
}): ChannelSender & { close(): void } {
  const { log } = deps;
  const transport = deps.smtpUrl
    ? nodemailer.createTransport({
        url: deps.smtpUrl,
        pool: true,
        maxConnections: deps.poolSize,
        maxMessages: Number.POSITIVE_INFINITY,
        connectionTimeout: deps.timeoutMs,
        greetingTimeout: deps.timeoutMs,
        socketTimeout: deps.timeoutMs,
      })
    : null;
  if (!transport) log.warn('SMTP_URL is not set: e-mail notifications are written to the log, not sent');

  return {
    async send(target: ChannelTarget, message: ChannelMessage) {
      const { toEmail } = target.config as EmailConfig;
      const content = composeEmail(message, deps.publicUrl);
      if (!transport) {
        log.info(
          { to: toEmail, subject: content.subject, text: content.text },
          'e-mail notification (log transport)',
        );
        return {
          note: 'SMTP is not configured: the e-mail was written to the server log instead of being sent.',
        };
      }
      try {
        await transport.sendMail({
          from: deps.from,
          to: toEmail,
          subject: content.subject,
          text: content.text,
          html: content.html,
          // The same Message-ID on every retry lets mail systems drop a duplicate.
          messageId: `<${message.id}@resort-alerts>`,
        });
      } catch (error) {
        throw toDeliveryError(error);
      }
      return { note: null };
    },
    close() {
      transport?.close();
    },
  };
}
