import { ActionIcon, Button, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { MAX_WEBHOOK_HEADERS, webhookMethods } from '@resort/shared';
import {
  bodyTemplatePlaceholders,
  type NotificationServiceFormValues,
} from './notification-service-form-model.ts';

type Form = UseFormReturnType<NotificationServiceFormValues>;

const secretHint = 'Shown masked once saved; leave it as it is to keep the saved value.';
const ntfyPriorities = [
  { value: '1', label: '1 (min)' },
  { value: '2', label: '2 (low)' },
  { value: '3', label: '3 (default)' },
  { value: '4', label: '4 (high)' },
  { value: '5', label: '5 (max)' },
];

function WebhookHeaders({ form }: { form: Form }) {
  const headers = form.getValues().headers;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          Headers
        </Text>
        <Button
          size="xs"
          variant="light"
          disabled={headers.length >= MAX_WEBHOOK_HEADERS}
          onClick={() => form.insertListItem('headers', { name: '', value: '' })}
        >
          Add header
        </Button>
      </Group>
      {headers.map((_, index) => (
        // Rows have no identity of their own; Mantine's list helpers keep the index keys consistent.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Group key={index} align="flex-start" wrap="nowrap" gap="xs">
          <TextInput
            placeholder="Header name"
            aria-label={`Header ${index + 1} name`}
            style={{ flex: 1 }}
            {...form.getInputProps(`headers.${index}.name`)}
          />
          <TextInput
            placeholder="Value"
            aria-label={`Header ${index + 1} value`}
            style={{ flex: 1 }}
            {...form.getInputProps(`headers.${index}.value`)}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mt={4}
            aria-label={`Remove header ${index + 1}`}
            onClick={() => form.removeListItem('headers', index)}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      {form.errors.headers ? (
        <Text size="xs" c="red">
          {form.errors.headers}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The fields of the chosen type (docs/product.md, "Alerts, templates and other entities"). */
export function NotificationServiceFields({ form }: { form: Form }) {
  const { type } = form.getValues();
  switch (type) {
    case 'WEBHOOK':
      return (
        <Stack gap="sm">
          <TextInput label="Webhook URL" placeholder="https://" required {...form.getInputProps('url')} />
          <Select
            label="Method"
            data={[...webhookMethods]}
            allowDeselect={false}
            {...form.getInputProps('method')}
          />
          <WebhookHeaders form={form} />
          <Textarea
            label="Body template"
            description={`Placeholders: ${bodyTemplatePlaceholders.join(', ')}. Sent as JSON when valid, otherwise as text.`}
            autosize
            minRows={3}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('bodyTemplate')}
          />
        </Stack>
      );
    case 'SLACK_WEBHOOK':
      return (
        <Stack gap="sm">
          <TextInput
            label="Slack webhook URL"
            placeholder="https://hooks.slack.com/…"
            required
            {...form.getInputProps('url')}
          />
          <TextInput label="Channel" placeholder="#alerts (optional)" {...form.getInputProps('channel')} />
          <TextInput label="Username" placeholder="Optional" {...form.getInputProps('username')} />
        </Stack>
      );
    case 'EMAIL':
      return <TextInput label="Destination email" type="email" required {...form.getInputProps('toEmail')} />;
    case 'SMS':
      return <TextInput label="Destination number" type="tel" required {...form.getInputProps('toNumber')} />;
    case 'NTFY':
      return (
        <Stack gap="sm">
          <TextInput label="ntfy server URL" required {...form.getInputProps('url')} />
          <TextInput label="Topic" required {...form.getInputProps('topic')} />
          <TextInput
            label="Access token"
            description={secretHint}
            placeholder="tk_… (optional)"
            autoComplete="off"
            {...form.getInputProps('token')}
          />
          <Select
            label="Priority"
            description="Urgent alerts always use 5 (max)."
            data={ntfyPriorities}
            allowDeselect={false}
            {...form.getInputProps('priority')}
          />
        </Stack>
      );
    case 'PUSHOVER':
      return (
        <Stack gap="sm">
          <TextInput
            label="User key"
            description={secretHint}
            required
            autoComplete="off"
            {...form.getInputProps('userKey')}
          />
          <TextInput
            label="Application token"
            description={secretHint}
            required
            autoComplete="off"
            {...form.getInputProps('appToken')}
          />
          <TextInput label="Device" placeholder="All devices (optional)" {...form.getInputProps('device')} />
        </Stack>
      );
    case 'TELEGRAM':
      return (
        <Stack gap="sm">
          <TextInput
            label="Bot token"
            description={secretHint}
            placeholder="123456:ABC…"
            required
            autoComplete="off"
            {...form.getInputProps('botToken')}
          />
          <TextInput
            label="Chat id"
            placeholder="-1001234567890 or @channel"
            required
            {...form.getInputProps('chatId')}
          />
        </Stack>
      );
    case 'DISCORD':
      return (
        <Stack gap="sm">
          <TextInput
            label="Discord webhook URL"
            description={secretHint}
            placeholder="https://discord.com/api/webhooks/…"
            required
            autoComplete="off"
            {...form.getInputProps('url')}
          />
          <TextInput label="Username" placeholder="Optional" {...form.getInputProps('username')} />
        </Stack>
      );
    case 'WEB_PUSH':
      return (
        <Text size="sm" c="dimmed">
          This browser subscription receives your alerts as push notifications. Remove it to stop them here.
        </Text>
      );
    case 'TEAMS':
      return (
        <TextInput
          label="Teams workflow or incoming webhook URL"
          description={secretHint}
          placeholder="https://…"
          required
          autoComplete="off"
          {...form.getInputProps('url')}
        />
      );
  }
}
