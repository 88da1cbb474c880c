import { ActionIcon, Button, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { MAX_WEBHOOK_HEADERS, webhookMethods } from '@resort/shared';
import {
  bodyTemplatePlaceholders,
  type NotificationServiceFormValues,
} from './notification-service-form-model.ts';

type Form = UseFormReturnType<NotificationServiceFormValues>;

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
  }
}
