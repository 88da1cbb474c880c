import { Group, NumberInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import {
  httpMethods,
  MIN_POLLING_INTERVAL_SECONDS,
  messages,
  POLLING_INTERVAL_STEP_SECONDS,
} from '@resort/shared';
import type { TemplateGroupRecord } from '@/api/contracts.ts';
import { JsonBox } from '@/components/json-box.tsx';
import type { TemplateEditorForm } from './template-editor-model.ts';
import { TemplateGroupPicker } from './template-group-picker.tsx';

/** Template configuration: identity, group, the upstream request and its defaults. */
export function TemplateConfigSection({
  form,
  groups,
  groupsError,
  onCreateGroup,
}: {
  form: TemplateEditorForm;
  groups: readonly TemplateGroupRecord[] | undefined;
  groupsError: string | null;
  onCreateGroup: (name: string) => Promise<TemplateGroupRecord>;
}) {
  const values = form.getValues();
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
        <TextInput label="Resort code" withAsterisk {...form.getInputProps('resortCode')} />
      </SimpleGrid>
      <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
      <TemplateGroupPicker
        groups={groups}
        groupsError={groupsError}
        value={values.templateGroupId}
        error={form.errors.templateGroupId}
        onChange={(id) => form.setFieldValue('templateGroupId', id)}
        onCreateGroup={onCreateGroup}
      />
      <Group align="flex-start" grow>
        <TextInput
          label="Target URL"
          placeholder="https://resort.example.com/api/availability"
          withAsterisk
          {...form.getInputProps('targetUrl')}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label="Method"
          data={[...httpMethods]}
          allowDeselect={false}
          {...form.getInputProps('method')}
        />
        <NumberInput
          label="Polling interval (seconds)"
          min={MIN_POLLING_INTERVAL_SECONDS}
          step={POLLING_INTERVAL_STEP_SECONDS}
          allowDecimal={false}
          {...form.getInputProps('pollingIntervalSeconds')}
        />
        <Switch label="Active" mt={30} {...form.getInputProps('isActive', { type: 'checkbox' })} />
      </SimpleGrid>
      <JsonBox
        label="Default headers (JSON object)"
        placeholder='{ "accept": "application/json" }'
        invalidMessage={messages.common.invalidJson}
        {...form.getInputProps('defaultHeadersText')}
      />
      <JsonBox
        label="Default query (JSON object)"
        placeholder='{ "resort": "POLY" }'
        invalidMessage={messages.common.invalidJson}
        {...form.getInputProps('defaultQueryText')}
      />
      <JsonBox
        label="Default body (JSON)"
        placeholder='{ "stay": { "checkIn": "2026-07-01" } }'
        invalidMessage={messages.common.invalidJson}
        {...form.getInputProps('defaultBodyText')}
      />
    </Stack>
  );
}
