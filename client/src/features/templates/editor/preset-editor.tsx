import {
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { Operator } from '@resort/shared';
import { useState } from 'react';
import {
  editorOperatorChoices,
  type RuleList,
  type TemplateEditorForm,
  valuelessOperators,
} from './template-editor-model.ts';
import { changeOperator } from './template-editor-transitions.ts';

const inputTypes = ['number', 'string', 'boolean'] as const;

/** `rooms[*].price lte 400`: what a folded rule card says about its condition. */
function conditionSummary(condition: { path: string; operator: string; value: string }): string {
  return [
    condition.path || '(no path)',
    condition.operator,
    valuelessOperators.includes(condition.operator as Operator) ? '' : condition.value,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * One rule preset: its condition and, optionally, the input the user fills in on the alert form.
 * A saved or generated rule is folded to one line (label, condition, Edit, Remove) so a template
 * with a dozen rules stays short; a new rule, or one with an error, is open.
 */
export function PresetEditor({
  form,
  list,
  index,
}: {
  form: TemplateEditorForm;
  list: RuleList;
  index: number;
}) {
  const presets = form.getValues().responseWatchPresets;
  const preset = presets[list][index];
  const [open, setOpen] = useState(() => !preset || (preset.id.trim() === '' && preset.label.trim() === ''));
  if (!preset) return null;
  const base = `responseWatchPresets.${list}.${index}` as const;
  const groupChoices = presets.groups
    .filter((g) => g.id.trim())
    .map((g) => ({ value: g.id, label: g.label || g.id }));
  const operator = preset.condition.operator;
  const hasError = Object.keys(form.errors).some((key) => key.startsWith(`${base}.`));
  const name = preset.label || preset.id || 'new rule';
  const remove = (
    <Button
      size="xs"
      variant="light"
      color="red"
      aria-label={`Remove rule ${name}`}
      onClick={() => form.removeListItem(`responseWatchPresets.${list}`, index)}
    >
      Remove rule
    </Button>
  );

  if (!open && !hasError) {
    return (
      <Card withBorder padding="xs" data-testid="preset">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div style={{ minWidth: 0, flex: '1 1 14rem', overflowWrap: 'anywhere' }}>
            <Text size="sm" fw={500}>
              {name}
            </Text>
            <Text size="xs" c="dimmed" ff="monospace">
              {conditionSummary(preset.condition)}
            </Text>
          </div>
          <Group gap="xs">
            {preset.defaultEnabled ? (
              <Badge variant="light" size="sm">
                On by default
              </Badge>
            ) : null}
            <Button
              size="xs"
              variant="default"
              aria-expanded={false}
              aria-label={`Edit rule ${name}`}
              onClick={() => setOpen(true)}
            >
              Edit
            </Button>
            {remove}
          </Group>
        </Group>
      </Card>
    );
  }

  return (
    <Card withBorder padding="sm" data-testid="preset">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
        <TextInput label="Rule id" withAsterisk {...form.getInputProps(`${base}.id`)} />
        <TextInput label="Rule label" withAsterisk {...form.getInputProps(`${base}.label`)} />
        <Select
          label="Group"
          placeholder="No group"
          data={groupChoices}
          clearable
          value={preset.group}
          onChange={(v) => form.setFieldValue(`${base}.group`, v)}
        />
      </SimpleGrid>
      <TextInput label="Description" mt="xs" {...form.getInputProps(`${base}.description`)} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs" mt="xs">
        <TextInput
          label="Response path"
          withAsterisk
          placeholder="rooms[*].nightlyPrice"
          {...form.getInputProps(`${base}.condition.path`)}
        />
        <Select
          label="Operator"
          data={[...editorOperatorChoices(operator)]}
          allowDeselect={false}
          value={operator}
          onChange={(next) => next && form.setFieldValue(base, changeOperator(preset, next as Operator))}
        />
        {valuelessOperators.includes(operator) ? null : (
          <TextInput label="Comparison value" {...form.getInputProps(`${base}.condition.value`)} />
        )}
      </SimpleGrid>
      <Group mt="sm" gap="lg">
        <Switch
          label="Enabled by default"
          {...form.getInputProps(`${base}.defaultEnabled`, { type: 'checkbox' })}
        />
        <Checkbox
          label="Users fill in the value"
          {...form.getInputProps(`${base}.hasInput`, { type: 'checkbox' })}
        />
      </Group>
      {preset.hasInput ? (
        <SimpleGrid cols={{ base: 1, sm: 4 }} spacing="xs" mt="xs">
          <Select
            label="Input type"
            data={[...inputTypes]}
            allowDeselect={false}
            {...form.getInputProps(`${base}.input.type`)}
          />
          <TextInput label="Input label" withAsterisk {...form.getInputProps(`${base}.input.label`)} />
          <TextInput label="Input default" {...form.getInputProps(`${base}.input.defaultValue`)} />
          <Switch
            label="Input required"
            mt={30}
            {...form.getInputProps(`${base}.input.required`, { type: 'checkbox' })}
          />
        </SimpleGrid>
      ) : null}
      <Group justify="flex-end" mt="sm" gap="xs">
        <Button
          size="xs"
          variant="default"
          aria-expanded
          aria-label={`Done editing rule ${name}`}
          disabled={hasError}
          onClick={() => setOpen(false)}
        >
          Done
        </Button>
        {remove}
      </Group>
    </Card>
  );
}
