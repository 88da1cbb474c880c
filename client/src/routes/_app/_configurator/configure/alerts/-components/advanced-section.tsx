import { Stack, Text } from '@mantine/core';
import { registrationMessages } from '@resort/shared';
import { JsonBox } from '../../../../../../components/editors/json-box.tsx';
import type { AlertForm } from './alert-form-model.ts';

/** Custom headers, query and body merged over the template's defaults (JSON, optional). */
export function AdvancedSection({ form }: { form: AlertForm }) {
  const invalid = registrationMessages.invalidJson;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Merged over the template's defaults before the override fields are applied. Leave blank to use the
        defaults.
      </Text>
      <JsonBox
        label="Custom headers (JSON object)"
        invalidMessage={invalid}
        {...form.getInputProps('customHeadersText')}
      />
      <JsonBox
        label="Custom query (JSON object)"
        invalidMessage={invalid}
        {...form.getInputProps('customQueryText')}
      />
      <JsonBox
        label="Custom body (JSON)"
        invalidMessage={invalid}
        {...form.getInputProps('customBodyText')}
      />
    </Stack>
  );
}
