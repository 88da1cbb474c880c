import {
  defaultWebhookBodyTemplate,
  notificationServiceMessages as m,
  maxWebhookHeaders,
  type NotificationServiceType,
  notificationServiceTypes,
  singleNotificationServiceTypes,
  type WebhookMethod,
} from '@resort/shared/notification-service.messages';
import { z } from 'zod';
import type { NotificationServicePayload } from '../../../../../api/contracts.ts';

export interface HeaderRow {
  name: string;
  value: string;
}

/** Every field of every type; the type decides which ones are shown, validated and sent. */
export interface NotificationServiceFormValues {
  type: NotificationServiceType;
  label: string;
  url: string;
  method: WebhookMethod;
  headers: HeaderRow[];
  bodyTemplate: string;
  channel: string;
  username: string;
  toEmail: string;
  toNumber: string;
}

export function emptyValues(type: NotificationServiceType, label = ''): NotificationServiceFormValues {
  return {
    type,
    label,
    url: '',
    method: 'POST',
    headers: [],
    bodyTemplate: type === 'WEBHOOK' ? defaultWebhookBodyTemplate : '',
    channel: '',
    username: '',
    toEmail: '',
    toNumber: '',
  };
}

/** Types the account may still add: one EMAIL, one SMS and one WEBHOOK; Slack is unlimited. */
export function isTypeTaken(
  type: NotificationServiceType,
  configured: readonly NotificationServiceType[],
): boolean {
  return (singleNotificationServiceTypes as readonly string[]).includes(type) && configured.includes(type);
}

export function firstFreeType(configured: readonly NotificationServiceType[]): NotificationServiceType {
  return notificationServiceTypes.find((t) => !isTypeTaken(t, configured)) ?? 'SLACK_WEBHOOK';
}

const httpUrl = (message: string) =>
  z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, message }));

const header = z.object({ name: z.string(), value: z.string() }).superRefine((row, ctx) => {
  // A row left entirely blank is dropped when sending; a half-filled one is a mistake.
  if (!row.name.trim() && !row.value.trim()) return;
  if (!row.name.trim()) ctx.addIssue({ code: 'custom', path: ['name'], message: m.headerNameRequired });
  if (!row.value.trim()) ctx.addIssue({ code: 'custom', path: ['value'], message: m.headerValueRequired });
});

const schemas: Record<NotificationServiceType, z.ZodType> = {
  WEBHOOK: z.object({
    url: httpUrl(m.webhookUrlInvalid),
    headers: z.array(header).max(maxWebhookHeaders, m.tooManyHeaders),
  }),
  SLACK_WEBHOOK: z.object({ url: httpUrl(m.slackUrlInvalid) }),
  EMAIL: z.object({ toEmail: z.string().trim().pipe(z.email(m.toEmailInvalid)) }),
  SMS: z.object({ toNumber: z.string().trim().min(1, m.toNumberRequired) }),
};

/** Field errors keyed by form path ('url', 'headers.2.value'), validated for the chosen type only. */
export function validateServiceForm(values: NotificationServiceFormValues): Record<string, string> {
  const result = schemas[values.type].safeParse(values);
  const errors: Record<string, string> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    errors[path] ??= issue.message;
  }
  return errors;
}

function parseBodyTemplate(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The payload of SPEC.md §3: headers as a map without blank pairs; a blank body template omitted. */
export function toPayload(values: NotificationServiceFormValues): NotificationServicePayload {
  const label = values.label.trim();
  const base = { type: values.type, ...(label ? { label } : {}) };
  switch (values.type) {
    case 'WEBHOOK': {
      const headers: Record<string, string> = {};
      for (const row of values.headers) {
        if (row.name.trim() && row.value.trim()) headers[row.name.trim()] = row.value.trim();
      }
      const body = values.bodyTemplate.trim();
      return {
        ...base,
        config: {
          url: values.url.trim(),
          method: values.method,
          headers,
          ...(body ? { bodyTemplate: parseBodyTemplate(body) } : {}),
        },
      };
    }
    case 'SLACK_WEBHOOK':
      return {
        ...base,
        config: {
          url: values.url.trim(),
          ...(values.channel.trim() ? { channel: values.channel.trim() } : {}),
          ...(values.username.trim() ? { username: values.username.trim() } : {}),
        },
      };
    case 'EMAIL':
      return { ...base, config: { toEmail: values.toEmail.trim() } };
    case 'SMS':
      return { ...base, config: { toNumber: values.toNumber.trim() } };
  }
}
