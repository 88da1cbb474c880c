import type { NotificationServiceType } from '@resort/shared';

/** Display names of the channel types; messages use the type itself, as the server does. */
export const serviceTypeLabels: Record<NotificationServiceType, string> = {
  WEBHOOK: 'Webhook',
  SLACK_WEBHOOK: 'Slack Webhook',
  EMAIL: 'Email',
  SMS: 'SMS',
  NTFY: 'ntfy',
  PUSHOVER: 'Pushover',
  TELEGRAM: 'Telegram',
  DISCORD: 'Discord',
  TEAMS: 'Microsoft Teams',
  WEB_PUSH: 'Browser push',
};
