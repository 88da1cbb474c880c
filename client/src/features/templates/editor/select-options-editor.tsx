import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { blankOption, type TemplateEditorForm } from './template-editor-model.ts';

/** The value/label pairs a SELECT override field offers. */
export function SelectOptionsEditor({ form, index }: { form: TemplateEditorForm; index: number }) {
  const base = `editableFields.${index}.options` as const;
  const options = form.getValues().editableFields[index]?.options ?? [];
  const error = form.errors[base];
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        Options
      </Text>
      {options.map((option, i) => (
        <Group key={option.uid} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            aria-label={`Option ${i + 1} value`}
            placeholder="Value"
            style={{ flex: 1 }}
            {...form.getInputProps(`${base}.${i}.value`)}
          />
          <TextInput
            aria-label={`Option ${i + 1} label`}
            placeholder="Label (defaults to the value)"
            style={{ flex: 1 }}
            {...form.getInputProps(`${base}.${i}.label`)}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mt={4}
            aria-label={`Remove option ${i + 1}`}
            onClick={() => form.removeListItem(base, i)}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      <Group>
        <Button size="xs" variant="subtle" onClick={() => form.insertListItem(base, blankOption())}>
          Add option
        </Button>
      </Group>
    </Stack>
  );
}
