import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { blankGroup, type TemplateEditorForm } from './template-editor-model.ts';
import { removeGroup, renameGroup } from './template-editor-transitions.ts';

/** Rule groups: headings the alert form shows its rules under. */
export function RuleGroupsEditor({ form }: { form: TemplateEditorForm }) {
  const presets = form.getValues().responseWatchPresets;
  const base = 'responseWatchPresets.groups' as const;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Rule groups
      </Text>
      {presets.groups.length === 0 ? (
        <Text size="sm" c="dimmed">
          No groups: rules show in one list.
        </Text>
      ) : null}
      {presets.groups.map((group, i) => (
        <Group key={group.uid} gap="xs" wrap="nowrap" align="flex-start" data-testid="rule-group">
          <TextInput
            aria-label={`Group ${i + 1} id`}
            placeholder="id"
            value={group.id}
            error={form.errors[`${base}.${i}.id`]}
            onChange={(event) =>
              form.setFieldValue(
                'responseWatchPresets',
                renameGroup(form.getValues().responseWatchPresets, i, event.currentTarget.value),
              )
            }
          />
          <TextInput
            aria-label={`Group ${i + 1} label`}
            placeholder="Label"
            style={{ flex: 1 }}
            {...form.getInputProps(`${base}.${i}.label`)}
          />
          <TextInput
            aria-label={`Group ${i + 1} description`}
            placeholder="Description (optional)"
            style={{ flex: 2 }}
            {...form.getInputProps(`${base}.${i}.description`)}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mt={4}
            aria-label={`Remove group ${group.label || group.id || i + 1}`}
            onClick={() =>
              form.setFieldValue(
                'responseWatchPresets',
                removeGroup(form.getValues().responseWatchPresets, i),
              )
            }
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button size="xs" variant="subtle" onClick={() => form.insertListItem(base, blankGroup())}>
          Add group
        </Button>
      </Group>
    </Stack>
  );
}
