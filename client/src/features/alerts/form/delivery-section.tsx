import { Checkbox, NumberInput, Stack, Text } from '@mantine/core';
import {
  MAX_POLLING_INTERVAL_SECONDS,
  MIN_POLLING_INTERVAL_SECONDS,
  POLLING_INTERVAL_STEP_SECONDS,
} from '@resort/shared';
import type { AlertForm } from './alert-form-model.ts';

export interface ServiceChoice {
  id: string;
  type: string;
  label: string | null;
  isActive: boolean;
}

const typeNames: Record<string, string> = {
  WEBHOOK: 'Webhook',
  SLACK_WEBHOOK: 'Slack',
  EMAIL: 'Email',
  SMS: 'SMS',
  NTFY: 'ntfy',
  PUSHOVER: 'Pushover',
  TELEGRAM: 'Telegram',
  DISCORD: 'Discord',
  TEAMS: 'Teams',
  WEB_PUSH: 'Browser push',
};
const typeLabel = (type: string) => typeNames[type] ?? type;

/** Polling interval (within the shared bounds, in steps of 5 s) and the notification services (inactive ones hidden). */
export function DeliverySection({ form, services }: { form: AlertForm; services: readonly ServiceChoice[] }) {
  const active = services.filter((s) => s.isActive);
  const chosen = form.getValues().notificationServiceIds;
  return (
    <Stack gap="md">
      <NumberInput
        label="Polling interval (seconds)"
        description={`How often the availability is checked: ${MIN_POLLING_INTERVAL_SECONDS} to ${MAX_POLLING_INTERVAL_SECONDS} seconds.`}
        min={MIN_POLLING_INTERVAL_SECONDS}
        max={MAX_POLLING_INTERVAL_SECONDS}
        step={POLLING_INTERVAL_STEP_SECONDS}
        allowDecimal={false}
        maw={280}
        {...form.getInputProps('pollingIntervalSeconds')}
      />
      <Checkbox
        label="Urgent"
        description="Its messages use each channel's high priority: ntfy 5, Pushover emergency, push that stays on screen."
        {...form.getInputProps('urgent', { type: 'checkbox' })}
      />
      <Checkbox.Group
        label="Notification services"
        description={
          active.length === 0 ? 'No active notification services: add one in Settings.' : undefined
        }
        value={chosen}
        onChange={(ids) => form.setFieldValue('notificationServiceIds', ids)}
        error={form.errors.notificationServiceIds}
      >
        <Stack gap={6} mt="xs">
          {active.map((s) => (
            <Checkbox
              key={s.id}
              value={s.id}
              label={s.label ? `${s.label} (${typeLabel(s.type)})` : typeLabel(s.type)}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      {chosen.some((id) => !active.some((s) => s.id === id)) ? (
        <Text size="xs" c="dimmed">
          Inactive services linked to this alert are not notified and will be unlinked on save.
        </Text>
      ) : null}
    </Stack>
  );
}
