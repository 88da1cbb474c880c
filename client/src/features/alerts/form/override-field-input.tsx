import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { type EditableField, isRepeatable } from '@resort/shared';
import type { ReactNode } from 'react';
import type { EntryValue, FieldValue } from './alert-form-model.ts';
import { FieldEntryInput } from './field-entry-input.tsx';

/**
 * An override field: one input, or for a repeatable field one input per entry. Entries tied to a
 * count field follow it (two children, two ages); others are added and removed by hand.
 */
export function OverrideFieldInput({
  field,
  value,
  count,
  error,
  onChange,
}: {
  field: EditableField;
  value: FieldValue;
  /** The linked count field's value, or null when the entries are not counted. */
  count: number | null;
  error?: ReactNode;
  onChange: (value: FieldValue) => void;
}) {
  if (!isRepeatable(field)) {
    return (
      <FieldEntryInput
        field={field}
        label={field.label}
        withAsterisk={field.required}
        value={Array.isArray(value) ? (value[0] ?? null) : value}
        error={error}
        onChange={onChange}
      />
    );
  }
  const list: EntryValue[] = Array.isArray(value) ? value : value === null ? [] : [value];
  const entries = count === null ? list : Array.from({ length: count }, (_, i) => list[i] ?? null);
  const set = (index: number, entry: EntryValue) =>
    onChange(entries.map((e, i) => (i === index ? entry : e)));

  return (
    <Stack gap={6} data-testid="repeatable-field">
      <Text size="sm" fw={500}>
        {field.label}
        {field.required ? (
          <Text span c="red">
            {' *'}
          </Text>
        ) : null}
      </Text>
      {entries.length === 0 ? (
        <Text size="xs" c="dimmed">
          {count === 0 ? 'No entries needed.' : 'No entries yet.'}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        {entries.map((entry, i) => (
          // Entries have no identity of their own: position is what ties an age to a child.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Group key={i} gap={4} align="flex-end" wrap="nowrap">
            <FieldEntryInput
              field={field}
              label={`${field.label} ${i + 1}`}
              value={entry}
              onChange={(v) => set(i, v)}
            />
            {count === null ? (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                aria-label={`Remove ${field.label} ${i + 1}`}
                onClick={() => onChange(entries.filter((_, k) => k !== i))}
              >
                ×
              </Button>
            ) : null}
          </Group>
        ))}
      </SimpleGrid>
      {count === null ? (
        <Group>
          <Button size="xs" variant="subtle" onClick={() => onChange([...entries, null])}>
            {`Add ${field.label.toLowerCase()}`}
          </Button>
        </Group>
      ) : null}
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
