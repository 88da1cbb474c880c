import {
  createNotificationServiceInput,
  DEFAULT_WEBHOOK_BODY_TEMPLATE,
  type NotificationServiceType,
  notificationServiceTypes,
  singleInstanceTypes,
  type WebhookHeader,
  type WebhookMethod,
} from '@resort/shared';
import type { z } from 'zod';

export type NotificationServicePayload = z.input<typeof createNotificationServiceInput>;

export const bodyTemplatePlaceholders = [
  '{{message}}',
  '{{registrationId}}',
  '{{templateId}}',
  '{{metadata.timestamp}}',
  '{{metadata.stays}}',
] as const;

/** Every field of every type; the type decides which ones are shown, validated and sent. */
export interface NotificationServiceFormValues {
  type: NotificationServiceType;
  label: string;
  url: string;
  method: WebhookMethod;
  headers: WebhookHeader[];
  bodyTemplate: string;
  channel: string;
  username: string;
  toEmail: string;
  toNumber: string;
  // Native channels. Secrets of a saved channel arrive masked and are kept when sent back unchanged.
  topic: string;
  token: string;
  priority: string;
  userKey: string;
  appToken: string;
  device: string;
  botToken: string;
  chatId: string;
  // A browser's push subscription: made by "Turn on push in this browser", never typed in.
  endpoint: string;
  p256dh: string;
  auth: string;
}

export function emptyValues(type: NotificationServiceType, label = ''): NotificationServiceFormValues {
  return {
    type,
    label,
    url: type === 'NTFY' ? 'https://ntfy.sh' : '',
    method: 'POST',
    headers: [],
    bodyTemplate: type === 'WEBHOOK' ? DEFAULT_WEBHOOK_BODY_TEMPLATE : '',
    channel: '',
    username: '',
    toEmail: '',
    toNumber: '',
    topic: '',
    token: '',
    priority: '3',
    userKey: '',
    appToken: '',
    device: '',
    botToken: '',
    chatId: '',
    endpoint: '',
    p256dh: '',
    auth: '',
  };
}

/** Types the account may still add: one EMAIL, one SMS and one WEBHOOK; Slack is unlimited. */
export function isTypeTaken(
  type: NotificationServiceType,
  configured: readonly NotificationServiceType[],
): boolean {
  return (singleInstanceTypes as readonly string[]).includes(type) && configured.includes(type);
}

/** The types the form adds: a browser's push subscription is made by turning push on, not typed in. */
export const formServiceTypes = notificationServiceTypes.filter((t) => t !== 'WEB_PUSH');

export function firstFreeType(configured: readonly NotificationServiceType[]): NotificationServiceType {
  return notificationServiceTypes.find((t) => !isTypeTaken(t, configured)) ?? 'SLACK_WEBHOOK';
}

const blankRow = (h: WebhookHeader) => h.name.trim() === '' && h.value.trim() === '';

/** The create/test payload: the fields of the chosen type only; entirely blank header rows dropped. */
export function toPayload(values: NotificationServiceFormValues): NotificationServicePayload {
  const label = values.label.trim() || undefined;
  switch (values.type) {
    case 'WEBHOOK':
      return {
        type: 'WEBHOOK',
        label,
        config: {
          url: values.url,
          method: values.method,
          headers: values.headers.filter((h) => !blankRow(h)),
          bodyTemplate: values.bodyTemplate,
        },
      };
    case 'SLACK_WEBHOOK':
      return {
        type: 'SLACK_WEBHOOK',
        label,
        config: {
          url: values.url,
          channel: values.channel || undefined,
          username: values.username || undefined,
        },
      };
    case 'EMAIL':
      return { type: 'EMAIL', label, config: { toEmail: values.toEmail } };
    case 'SMS':
      return { type: 'SMS', label, config: { toNumber: values.toNumber } };
    case 'NTFY':
      return {
        type: 'NTFY',
        label,
        config: {
          url: values.url,
          topic: values.topic,
          token: values.token || undefined,
          priority: Number(values.priority),
        },
      };
    case 'PUSHOVER':
      return {
        type: 'PUSHOVER',
        label,
        config: { userKey: values.userKey, appToken: values.appToken, device: values.device || undefined },
      };
    case 'TELEGRAM':
      return { type: 'TELEGRAM', label, config: { botToken: values.botToken, chatId: values.chatId } };
    case 'DISCORD':
      return { type: 'DISCORD', label, config: { url: values.url, username: values.username || undefined } };
    case 'TEAMS':
      return { type: 'TEAMS', label, config: { url: values.url } };
    case 'WEB_PUSH':
      return {
        type: 'WEB_PUSH',
        label,
        config: { endpoint: values.endpoint, p256dh: values.p256dh, auth: values.auth },
      };
  }
}

/**
 * Validates with the server's own input schema, so the form shows the same messages the API would
 * answer. Issue paths 'config.url' and 'config.headers.2.value' become the form's 'url' and
 * 'headers.2.value'. Header rows keep their indexes: blank rows are validated in place, not dropped.
 */
export function validateServiceForm(values: NotificationServiceFormValues): Record<string, string> {
  const payload = toPayload(values);
  if (payload.type === 'WEBHOOK') payload.config.headers = values.headers;
  const result = createNotificationServiceInput.safeParse(payload);
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const path = (issue.path[0] === 'config' ? issue.path.slice(1) : issue.path).join('.');
    errors[path] ??= issue.message;
  }
  return errors;
}

/** A saved service's values in the form's shape, for editing it. */
export function fromService(service: {
  type: NotificationServiceType;
  label: string | null;
  config: unknown;
}): NotificationServiceFormValues {
  const values = emptyValues(service.type, service.label ?? '');
  const c = (service.config ?? {}) as Partial<Record<string, unknown>>;
  const text = (key: string) => (typeof c[key] === 'string' ? (c[key] as string) : '');
  return {
    ...values,
    url: text('url'),
    method: (text('method') || values.method) as WebhookMethod,
    headers: Array.isArray(c.headers) ? (c.headers as WebhookHeader[]).map((h) => ({ ...h })) : [],
    bodyTemplate: text('bodyTemplate') || values.bodyTemplate,
    channel: text('channel'),
    username: text('username'),
    toEmail: text('toEmail'),
    toNumber: text('toNumber'),
    topic: text('topic'),
    token: text('token'),
    priority: typeof c.priority === 'number' ? String(c.priority) : values.priority,
    userKey: text('userKey'),
    appToken: text('appToken'),
    device: text('device'),
    botToken: text('botToken'),
    chatId: text('chatId'),
    endpoint: text('endpoint'),
    p256dh: text('p256dh'),
    auth: text('auth'),
  };
}
