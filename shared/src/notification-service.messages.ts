/**
 * Notification-service constants and the form messages of SPEC.md §5 and §8. The notifications
 * module's input schema (notification-service.schema.ts) should import these rather than repeat
 * them, so the Settings form and the server answer the same words.
 */
export const notificationServiceTypes = ['WEBHOOK', 'SLACK_WEBHOOK', 'EMAIL', 'SMS'] as const;
export type NotificationServiceType = (typeof notificationServiceTypes)[number];

/** Only one of each of these per account (a partial unique index on the server); Slack is unlimited. */
export const singleNotificationServiceTypes = ['EMAIL', 'SMS', 'WEBHOOK'] as const;

export const webhookMethods = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;
export type WebhookMethod = (typeof webhookMethods)[number];

export const maxWebhookHeaders = 15;
export const webhookLabelDisplayLength = 40;
/** The default webhook body: a content field holding the message placeholder (SPEC.md §3). */
export const defaultWebhookBodyTemplate = '{\n  "content": "{{message}}"\n}';
export const bodyTemplatePlaceholders = [
  '{{message}}',
  '{{registrationId}}',
  '{{templateId}}',
  '{{metadata.timestamp}}',
] as const;

export const notificationServiceTypeLabels: Record<NotificationServiceType, string> = {
  WEBHOOK: 'Webhook',
  SLACK_WEBHOOK: 'Slack Webhook',
  EMAIL: 'Email',
  SMS: 'SMS',
};

export const notificationServiceMessages = {
  webhookUrlInvalid: 'Webhook URL must be a valid URL',
  headerNameRequired: 'Header name is required',
  headerValueRequired: 'Header value is required',
  tooManyHeaders: 'A maximum of 15 headers is supported',
  slackUrlInvalid: 'Slack webhook URL must be a valid URL',
  toEmailInvalid: 'Destination email must be valid',
  toNumberRequired: 'Destination number is required',
  alreadyConfigured: (type: NotificationServiceType) =>
    `${notificationServiceTypeLabels[type]} channel already configured.`,
  created: (type: NotificationServiceType) =>
    `Notification service ${notificationServiceTypeLabels[type]} created.`,
  testDispatched: 'Test notification dispatched successfully.',
  createFailed: 'Unable to create notification service.',
  testFailed: 'Failed to dispatch test notification.',
  loadHistoryFailed: 'Unable to load notifications.',
  loadRecentFailed: 'Failed to load recent notifications.',
} as const;

/** Webhook labels are shown cut at 40 characters (SPEC.md §2). */
export function truncateLabel(label: string, max: number = webhookLabelDisplayLength): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}
