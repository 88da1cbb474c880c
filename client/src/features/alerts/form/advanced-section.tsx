import { Button, Stack, Text } from '@mantine/core';
import { alertMessages } from '@resort/shared';
import { useState } from 'react';
import { JsonBox } from '@/components/json-box.tsx';
import type { AlertForm } from './alert-form-model.ts';

const fields = ['customHeadersText', 'customQueryText', 'customBodyText'] as const;

/**
 * Custom headers, query and body merged over the template's defaults (JSON, optional). Folded
 * unless one is filled in or has an error: most alerts need none, and folded they cost one Tab.
 */
export function AdvancedSection({ form }: { form: AlertForm }) {
  const invalid = alertMessages.invalidJson;
  const values = form.getValues();
  const [open, setOpen] = useState(() => fields.some((f) => values[f].trim() !== ''));
  const forced = fields.some((f) => form.errors[f]);
  const shown = open || forced;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Merged over the template's defaults before the override fields are applied. Leave blank to use the
        defaults.
      </Text>
      <Button
        variant="subtle"
        size="compact-sm"
        style={{ alignSelf: 'flex-start' }}
        aria-expanded={shown}
        disabled={forced}
        onClick={() => setOpen((o) => !o)}
      >
        {shown ? 'Hide custom request options' : 'Show custom request options'}
      </Button>
      {shown ? (
        <>
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
        </>
      ) : null}
    </Stack>
  );
}
