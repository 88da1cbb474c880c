import { z } from 'zod';

/** Notification channels: schemas and every message, once. */
export const notificationServiceTypes = [
  'WEBHOOK',
  'SLACK_WEBHOOK',
  'EMAIL',
  'SMS',
  'NTFY',
  'PUSHOVER',
  'TELEGRAM',
  'DISCORD',
  'TEAMS',
  'WEB_PUSH',
] as const;
export type NotificationServiceType = (typeof notificationServiceTypes)[number];

/** One of each of these per account (a partial unique index enforces it too); Slack is unlimited. */
/**
 * Whether a channel may receive alerts: webhooks and Slack need no verification; e-mail and SMS are
 * `verified` (a code sent to them, or the account's own verified address), `existing` (added before
 * verification existed, still delivering) or `unverified` (receive nothing but their code).
 */
export const channelVerifications = ['not-needed', 'verified', 'existing', 'unverified'] as const;
export type ChannelVerification = (typeof channelVerifications)[number];
/** The types whose destination is verified before anything but the code is sent to it. */
export const verifiedChannelTypes = ['EMAIL', 'SMS'] as const satisfies NotificationServiceType[];
export function needsVerification(type: string): boolean {
  return (verifiedChannelTypes as readonly string[]).includes(type);
}

export const singleInstanceTypes = ['EMAIL', 'SMS', 'WEBHOOK'] as const satisfies NotificationServiceType[];

export const webhookMethods = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;
export type WebhookMethod = (typeof webhookMethods)[number];

export const MAX_WEBHOOK_HEADERS = 15;
export const MAX_BODY_TEMPLATE_LENGTH = 20_000;
/** Webhook labels are shortened to this many characters where they are displayed. */
export const WEBHOOK_LABEL_DISPLAY_LENGTH = 40;
/** The default webhook body: a content field holding the message placeholder. */
export const DEFAULT_WEBHOOK_BODY_TEMPLATE = '{"content": "{{message}}"}';

export const HISTORY_DEFAULT_LIMIT = 20;
export const HISTORY_MAX_LIMIT = 100;

/** Headers the server sets on every webhook delivery; a user's header may not replace them. */
export const reservedWebhookHeaders = [
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
] as const;

export const notificationMessages = {
  webhookUrlInvalid: 'Webhook URL must be a valid URL',
  headerNameRequired: 'Header name is required',
  headerValueRequired: 'Header value is required',
  tooManyHeaders: 'A maximum of 15 headers is supported',
  slackUrlInvalid: 'Slack webhook URL must be a valid URL',
  destinationEmailInvalid: 'Destination email must be valid',
  destinationNumberRequired: 'Destination number is required',
  channelAlreadyConfigured: (type: string) => `${type} channel already configured.`,
  serviceCreated: (type: string) => `Notification service ${type} created.`,
  testDispatched: 'Test notification dispatched successfully.',
  createFailed: 'Unable to create notification service.',
  testFailed: 'Failed to dispatch test notification.',
  loadFailed: 'Unable to load notifications.',
  loadRecentFailed: 'Failed to load recent notifications.',
  // Rules the server needs so a saved channel can actually be sent.
  headerNameInvalid: "Header name may contain only letters, digits and !#$%&'*+-.^_`|~",
  headerValueInvalid: 'Header value may not contain line breaks',
  headerReserved: (name: string) => `Header ${name} is set by the server and cannot be changed`,
  bodyTemplateTooLong: `Body template must be at most ${MAX_BODY_TEMPLATE_LENGTH} characters`,
  typeUnchangeable: 'The type of a notification service cannot be changed.',
  serviceNotFound: 'Notification service not found.',
  serviceInactive: 'Notification service is inactive.',
  historyLimitInvalid: 'Limit must be a number of at least 1.',
  deactivatedGone: (status: number) =>
    `Deactivated: the receiver answered ${status} Gone, which means it no longer accepts deliveries.`,
  // Managing saved services in Settings.
  serviceUpdated: (name: string) => `Notification service ${name} updated.`,
  serviceEnabled: (name: string) => `Notification service ${name} enabled.`,
  serviceDisabled: (name: string) => `Notification service ${name} disabled.`,
  serviceDeleted: (name: string) => `Notification service ${name} deleted.`,
  secretRotated: (name: string) =>
    `Signing secret of ${name} rotated. Give the new secret to the receiver: the old one no longer verifies.`,
  deleteConfirm: (name: string) =>
    `Delete notification service "${name}"? Alerts that use it stop notifying it and keep their other services. This action cannot be undone.`,
  rotateConfirm: (name: string) =>
    `Rotate the signing secret of "${name}"? Deliveries signed with the new secret fail verification until the receiver has it.`,
  updateFailed: 'Unable to update the notification service.',
  deleteFailed: 'Unable to delete the notification service.',
  rotateFailed: 'Unable to rotate the signing secret.',
  // Native channels.
  ntfyUrlInvalid: 'ntfy server URL must be a valid URL',
  ntfyTopicInvalid: 'Topic may contain only letters, digits, - and _ (at most 64)',
  ntfyPriorityInvalid: 'Priority must be a whole number from 1 to 5',
  pushoverUserKeyInvalid: 'User key must be the 30 letters and digits Pushover shows',
  pushoverAppTokenInvalid: 'Application token must be the 30 letters and digits Pushover shows',
  telegramBotTokenInvalid: 'Bot token must look like 123456:ABC… as BotFather gives it',
  telegramChatIdInvalid: 'Chat id must be a number (e.g. -1001234567890) or a @channelname',
  discordUrlInvalid: 'Discord webhook URL must be a valid URL',
  teamsUrlInvalid: 'Teams webhook URL must be a valid URL',
  secretMaskedOnCreate: 'Enter the whole secret: a hidden value can only be kept on a saved channel.',
  pushEndpointInvalid: 'Push subscription endpoint must be a valid URL',
  pushKeysInvalid: 'Push subscription keys are not valid',
  pushGone: (status: number) =>
    `Removed: the push service answered ${status}, which means this browser's subscription has expired.`,
  /** A delivery attempt's error when the thread encrypting its push stopped (it is retried on a new one). */
  pushSealerStopped: (exitCode: number) => `The push sealer stopped (exit code ${exitCode}).`,
} as const;

/**
 * Secrets of a saved channel (tokens, keys, URLs that carry a token) are never returned in full:
 * they come back masked, and a masked value sent back in an update or a test keeps the stored one.
 */
export const SECRET_MASK = '••••••••';
export const secretConfigFields: Partial<Record<NotificationServiceType, readonly string[]>> = {
  NTFY: ['token'],
  PUSHOVER: ['userKey', 'appToken'],
  TELEGRAM: ['botToken'],
  DISCORD: ['url'],
  TEAMS: ['url'],
  WEB_PUSH: ['endpoint', 'p256dh', 'auth'],
};
export function maskSecret(value: string): string {
  return `${SECRET_MASK}${value.length > 12 ? value.slice(-4) : ''}`;
}
export function isMaskedSecret(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith(SECRET_MASK);
}

export const dispatchStatuses = ['PENDING', 'SUCCESS', 'FAILURE'] as const;
export type DispatchStatus = (typeof dispatchStatuses)[number];
export const dispatchStatusLabels: Record<DispatchStatus, string> = {
  PENDING: 'Pending dispatch',
  SUCCESS: 'Delivered',
  FAILURE: 'Failed',
};

const httpUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(2048, message)
    .pipe(z.url({ protocol: /^https?$/, error: message }));

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * A header row of the form. A row left entirely blank is allowed and dropped (the form keeps an
 * empty row); a half-filled row answers the message of its blank side.
 */
export const webhookHeaderSchema = z
  .object({ name: z.string().trim().max(256), value: z.string().max(8192) })
  .superRefine((h, ctx) => {
    const blankName = h.name === '';
    const blankValue = h.value.trim() === '';
    if (blankName && blankValue) return;
    if (blankName)
      ctx.addIssue({ code: 'custom', path: ['name'], message: notificationMessages.headerNameRequired });
    else if (!HEADER_NAME.test(h.name))
      ctx.addIssue({ code: 'custom', path: ['name'], message: notificationMessages.headerNameInvalid });
    else if ((reservedWebhookHeaders as readonly string[]).includes(h.name.toLowerCase()))
      ctx.addIssue({ code: 'custom', path: ['name'], message: notificationMessages.headerReserved(h.name) });
    if (blankValue)
      ctx.addIssue({ code: 'custom', path: ['value'], message: notificationMessages.headerValueRequired });
    else if (/[\r\n\0]/.test(h.value))
      ctx.addIssue({ code: 'custom', path: ['value'], message: notificationMessages.headerValueInvalid });
  });
export type WebhookHeader = { name: string; value: string };

export const webhookConfigSchema = z.object({
  url: httpUrl(notificationMessages.webhookUrlInvalid),
  method: z.enum(webhookMethods).default('POST'),
  headers: z
    .array(webhookHeaderSchema)
    .max(MAX_WEBHOOK_HEADERS, notificationMessages.tooManyHeaders)
    .default([])
    .transform((rows) => rows.filter((h) => h.name !== '' || h.value.trim() !== '')),
  bodyTemplate: z
    .string()
    .max(MAX_BODY_TEMPLATE_LENGTH, notificationMessages.bodyTemplateTooLong)
    .default(DEFAULT_WEBHOOK_BODY_TEMPLATE),
});
export type WebhookConfig = z.infer<typeof webhookConfigSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .nullable()
    .transform((v) => (v ? v : undefined));

export const slackConfigSchema = z.object({
  url: httpUrl(notificationMessages.slackUrlInvalid),
  channel: optionalText(200),
  username: optionalText(200),
});
export type SlackConfig = z.infer<typeof slackConfigSchema>;

export const emailConfigSchema = z.object({
  toEmail: z
    .string({ error: notificationMessages.destinationEmailInvalid })
    .trim()
    .max(320, notificationMessages.destinationEmailInvalid)
    .pipe(z.email(notificationMessages.destinationEmailInvalid)),
});
export type EmailConfig = z.infer<typeof emailConfigSchema>;

export const smsConfigSchema = z.object({
  toNumber: z
    .string({ error: notificationMessages.destinationNumberRequired })
    .trim()
    .min(1, notificationMessages.destinationNumberRequired)
    .max(40),
});
export type SmsConfig = z.infer<typeof smsConfigSchema>;

/** A secret field: a value of its own shape, or the mask of the stored one (kept by the server). */
const secretOr = (schema: z.ZodType<string, string>, message: string) =>
  z
    .string({ error: message })
    .superRefine((value, ctx) => {
      if (isMaskedSecret(value.trim())) return;
      const result = schema.safeParse(value);
      if (!result.success)
        ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? message });
    })
    .transform((value) => (isMaskedSecret(value.trim()) ? value.trim() : schema.parse(value)));

export const ntfyConfigSchema = z.object({
  url: httpUrl(notificationMessages.ntfyUrlInvalid).default('https://ntfy.sh'),
  topic: z
    .string({ error: notificationMessages.ntfyTopicInvalid })
    .trim()
    .regex(/^[-_A-Za-z0-9]{1,64}$/, notificationMessages.ntfyTopicInvalid),
  token: secretOr(z.string().trim().max(200), 'Access token is too long')
    .optional()
    .nullable()
    .transform((v) => (v ? v : undefined)),
  priority: z.coerce
    .number({ error: notificationMessages.ntfyPriorityInvalid })
    .int(notificationMessages.ntfyPriorityInvalid)
    .min(1, notificationMessages.ntfyPriorityInvalid)
    .max(5, notificationMessages.ntfyPriorityInvalid)
    .default(3),
});
export type NtfyConfig = z.infer<typeof ntfyConfigSchema>;

const pushoverKey = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^[A-Za-z0-9]{30}$/, message);
export const pushoverConfigSchema = z.object({
  userKey: secretOr(
    pushoverKey(notificationMessages.pushoverUserKeyInvalid),
    notificationMessages.pushoverUserKeyInvalid,
  ),
  appToken: secretOr(
    pushoverKey(notificationMessages.pushoverAppTokenInvalid),
    notificationMessages.pushoverAppTokenInvalid,
  ),
  device: optionalText(25),
});
export type PushoverConfig = z.infer<typeof pushoverConfigSchema>;

export const telegramConfigSchema = z.object({
  botToken: secretOr(
    z
      .string({ error: notificationMessages.telegramBotTokenInvalid })
      .trim()
      .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, notificationMessages.telegramBotTokenInvalid),
    notificationMessages.telegramBotTokenInvalid,
  ),
  chatId: z
    .string({ error: notificationMessages.telegramChatIdInvalid })
    .trim()
    .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/, notificationMessages.telegramChatIdInvalid),
});
export type TelegramConfig = z.infer<typeof telegramConfigSchema>;

export const discordConfigSchema = z.object({
  url: secretOr(httpUrl(notificationMessages.discordUrlInvalid), notificationMessages.discordUrlInvalid),
  username: optionalText(80),
});
export type DiscordConfig = z.infer<typeof discordConfigSchema>;

export const teamsConfigSchema = z.object({
  url: secretOr(httpUrl(notificationMessages.teamsUrlInvalid), notificationMessages.teamsUrlInvalid),
});
export type TeamsConfig = z.infer<typeof teamsConfigSchema>;

/**
 * A browser's push subscription (PushSubscription.toJSON(): endpoint, keys.p256dh, keys.auth, in
 * base64url) and the device it names, kept flat so its secrets are masked like the others'.
 */
export const webPushConfigSchema = z.object({
  endpoint: secretOr(
    httpUrl(notificationMessages.pushEndpointInvalid),
    notificationMessages.pushEndpointInvalid,
  ),
  // An uncompressed P-256 point is 65 bytes (87 characters); the auth secret 16 bytes (22).
  p256dh: secretOr(
    z.string().regex(/^[A-Za-z0-9_-]{87}$/, notificationMessages.pushKeysInvalid),
    notificationMessages.pushKeysInvalid,
  ),
  auth: secretOr(
    z.string().regex(/^[A-Za-z0-9_-]{22}$/, notificationMessages.pushKeysInvalid),
    notificationMessages.pushKeysInvalid,
  ),
});
export type WebPushConfig = z.infer<typeof webPushConfigSchema>;

/** GET /users/me/web-push-key: the server's VAPID public key, for PushManager.subscribe. */
export interface WebPushKey {
  publicKey: string;
}

/** The config schema of each type, for the update call (which knows the type from the stored row). */
export const notificationConfigSchemas = {
  WEBHOOK: webhookConfigSchema,
  SLACK_WEBHOOK: slackConfigSchema,
  EMAIL: emailConfigSchema,
  SMS: smsConfigSchema,
  NTFY: ntfyConfigSchema,
  PUSHOVER: pushoverConfigSchema,
  TELEGRAM: telegramConfigSchema,
  DISCORD: discordConfigSchema,
  TEAMS: teamsConfigSchema,
  WEB_PUSH: webPushConfigSchema,
} as const;

export type NotificationServiceConfig =
  | WebhookConfig
  | SlackConfig
  | EmailConfig
  | SmsConfig
  | NtfyConfig
  | PushoverConfig
  | TelegramConfig
  | DiscordConfig
  | TeamsConfig
  | WebPushConfig;

const labelSchema = z
  .string()
  .trim()
  .max(200)
  .optional()
  .nullable()
  .transform((v) => (v ? v : null));

function byType<Extra extends z.ZodRawShape>(extra: Extra) {
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('WEBHOOK'), label: labelSchema, config: webhookConfigSchema, ...extra }),
    z.object({ type: z.literal('SLACK_WEBHOOK'), label: labelSchema, config: slackConfigSchema, ...extra }),
    z.object({ type: z.literal('EMAIL'), label: labelSchema, config: emailConfigSchema, ...extra }),
    z.object({ type: z.literal('SMS'), label: labelSchema, config: smsConfigSchema, ...extra }),
    z.object({ type: z.literal('NTFY'), label: labelSchema, config: ntfyConfigSchema, ...extra }),
    z.object({ type: z.literal('PUSHOVER'), label: labelSchema, config: pushoverConfigSchema, ...extra }),
    z.object({ type: z.literal('TELEGRAM'), label: labelSchema, config: telegramConfigSchema, ...extra }),
    z.object({ type: z.literal('DISCORD'), label: labelSchema, config: discordConfigSchema, ...extra }),
    z.object({ type: z.literal('TEAMS'), label: labelSchema, config: teamsConfigSchema, ...extra }),
    z.object({ type: z.literal('WEB_PUSH'), label: labelSchema, config: webPushConfigSchema, ...extra }),
  ]);
}

/** POST /users/me/notification-services: type, label, config, validated by type. */
export const createNotificationServiceInput = byType({});
export type CreateNotificationServiceInput = z.infer<typeof createNotificationServiceInput>;

/**
 * POST /users/me/notification-services/test: the same payload as create. `id` names a saved
 * service whose signing secret signs the test webhook, so a receiver can verify it.
 */
export const testNotificationServiceInput = byType({ id: z.uuid().optional() });
export type TestNotificationServiceInput = z.infer<typeof testNotificationServiceInput>;

/**
 * PATCH /users/me/notification-services/{id}: any of label, config (whole, validated against the
 * stored type by the service) and isActive. `type`, when sent, must be the stored type.
 */
export const updateNotificationServiceInput = z.object({
  id: z.uuid(),
  type: z.enum(notificationServiceTypes).optional(),
  label: z.string().trim().max(200).nullable().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  isActive: z.boolean().optional(),
});
export type UpdateNotificationServiceInput = z.infer<typeof updateNotificationServiceInput>;

export const notificationServiceIdInput = z.object({ id: z.uuid() });
export const setNotificationServiceActiveInput = z.object({ id: z.uuid(), isActive: z.boolean() });

export interface NotificationService {
  id: string;
  type: NotificationServiceType;
  label: string | null;
  isActive: boolean;
  config: NotificationServiceConfig;
  /** The Standard Webhooks secret (whsec_…), shown to the owner of a WEBHOOK service only. */
  signingSecret: string | null;
  /** Why the server deactivated it (e.g. the receiver answered 410), or null. */
  deactivatedReason: string | null;
  verification: ChannelVerification;
  createdAt: string;
  updatedAt: string;
}

export interface TestNotificationResult {
  message: string;
}

export const quietHoursMessages = {
  startInvalid: 'Start must be a time of day (HH:MM)',
  endInvalid: 'End must be a time of day (HH:MM)',
  sameStartEnd: 'Start and end must differ',
  timeZoneInvalid: 'Time zone must be an IANA name such as Europe/Paris',
  serviceNotYours: 'Quiet hours can cover only your own notification services.',
  saved: 'Quiet hours saved.',
  saveFailed: 'Unable to save the quiet hours.',
} as const;

/** Whether the runtime knows the IANA time zone (the database shares the same names). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const timeOfDay = (message: string) =>
  z.string({ error: message }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, message);

/**
 * PUT /users/me/quiet-hours: one window a day in the user's time zone (it may cross midnight), for
 * every channel (serviceIds null) or the ones named. Deliveries inside it are held and sent as one
 * digest per channel when it ends; urgent alerts go through at once.
 */
export const quietHoursSchema = z
  .object({
    enabled: z.boolean(),
    start: timeOfDay(quietHoursMessages.startInvalid).default('22:00'),
    end: timeOfDay(quietHoursMessages.endInvalid).default('07:00'),
    timeZone: z
      .string({ error: quietHoursMessages.timeZoneInvalid })
      .trim()
      .max(64)
      .refine(isTimeZone, quietHoursMessages.timeZoneInvalid)
      .default('UTC'),
    serviceIds: z.array(z.uuid()).max(100).nullable().default(null),
  })
  .refine((q) => q.start !== q.end, { path: ['end'], message: quietHoursMessages.sameStartEnd });
export type QuietHours = z.infer<typeof quietHoursSchema>;
export const DEFAULT_QUIET_HOURS: QuietHours = {
  enabled: false,
  start: '22:00',
  end: '07:00',
  timeZone: 'UTC',
  serviceIds: null,
};

/** GET /users/me/notification-history?limit=n: at least 1, rounded down, at most HISTORY_MAX_LIMIT. */
export const notificationHistoryInput = z
  .object({
    limit: z.coerce
      .number({ error: notificationMessages.historyLimitInvalid })
      .min(1, notificationMessages.historyLimitInvalid)
      .transform((n) => Math.min(Math.floor(n), HISTORY_MAX_LIMIT))
      .optional(),
  })
  .optional();
export type NotificationHistoryInput = z.infer<typeof notificationHistoryInput>;

/** One delivery of one notification to one channel: the dashboard's notification record. */
export interface NotificationRecord {
  id: string;
  notificationId: string;
  notificationServiceId: string;
  notificationService: { type: NotificationServiceType; label: string | null };
  registration: {
    id: string;
    title: string | null;
    partyName: string | null;
    template: { name: string };
  } | null;
  /** What it says: MATCH, RESOLVED, FAILING, DRIFTED, RECOVERED or TEMPLATE_FAILING. */
  kind: string;
  message: string;
  error: string | null;
  status: DispatchStatus;
  attempts: number;
  dispatchedAt: string | null;
  createdAt: string;
}

/** What a label looks like in a list: webhook labels are cut at 40 characters. */
export function displayLabel(service: Pick<NotificationService, 'type' | 'label'>): string {
  const label = service.label ?? service.type;
  if (service.type !== 'WEBHOOK' || label.length <= WEBHOOK_LABEL_DISPLAY_LENGTH) return label;
  return `${label.slice(0, WEBHOOK_LABEL_DISPLAY_LENGTH - 1)}…`;
}
