import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { alertMessages, type Preset } from '@resort/shared';
import { useState } from 'react';
import type { AlertForm, RuleState, TemplateModel } from './alert-form-model.ts';

function RuleInput({
  preset,
  rule,
  index,
  form,
}: {
  preset: Preset;
  rule: RuleState;
  index: number;
  form: AlertForm;
}) {
  const input = preset.input;
  if (!input) return null;
  const path = `rules.${index}.value` as const;
  const common = {
    label: input.label,
    description: input.description,
    withAsterisk: input.required,
    disabled: !rule.enabled,
    error: form.errors[path],
  };
  const set = (value: RuleState['value']) => {
    form.setFieldValue(path, value);
    form.clearFieldError(path);
  };
  if (input.type === 'number') {
    return (
      <NumberInput
        {...common}
        value={typeof rule.value === 'number' || typeof rule.value === 'string' ? rule.value : ''}
        onChange={(v) => set(v === '' ? null : v)}
      />
    );
  }
  if (input.type === 'boolean') {
    return (
      <Select
        {...common}
        data={['true', 'false']}
        value={rule.value === null || rule.value === '' ? null : String(rule.value)}
        onChange={(v) => set(v === null ? null : v === 'true')}
      />
    );
  }
  return (
    <TextInput
      {...common}
      value={rule.value === null ? '' : String(rule.value)}
      onChange={(e) => set(e.currentTarget.value)}
    />
  );
}

function RuleCard({
  preset,
  list,
  index,
  form,
  onToggle,
}: {
  preset: Preset;
  list: 'all' | 'any';
  index: number;
  form: AlertForm;
  onToggle: (index: number) => void;
}) {
  const rule = form.getValues().rules[index];
  if (!rule) return null;
  return (
    <Card withBorder padding="xs" data-testid="alert-rule">
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <Switch
          label={preset.label}
          description={preset.description}
          checked={rule.enabled}
          style={{ flex: '1 1 16rem' }}
          onChange={(e) => {
            form.setFieldValue(`rules.${index}.enabled`, e.currentTarget.checked);
            form.clearFieldError('rules');
            onToggle(index);
          }}
        />
        {/* An input only for a rule that is on: off rules add nothing to the Tab path. */}
        {preset.input && rule.enabled ? (
          <div style={{ flex: '0 1 14rem', minWidth: '10rem' }}>
            <RuleInput preset={preset} rule={rule} index={index} form={form} />
          </div>
        ) : null}
        <Badge variant="light" color="gray">
          {list === 'all' ? 'Must hold' : 'Any may hold'}
        </Badge>
      </Group>
    </Card>
  );
}

/**
 * Rule presets of the template, by group: the rules that are on, each a compact card with its
 * switch and typed input; the rules that are off stay folded behind one button, so the keyboard
 * path from the template to Title, Party name and Create stays short.
 */
export function AlertRulesSection({
  form,
  model,
  isAdmin,
}: {
  form: AlertForm;
  model: TemplateModel;
  isAdmin: boolean;
}) {
  const values = form.getValues();
  const [showAll, setShowAll] = useState(false);
  // A rule switched here stays in view (on or off), so the focus never jumps away from it.
  const [kept, setKept] = useState<ReadonlySet<number>>(new Set());
  if (!model.presets) {
    return (
      <Alert color="red" variant="light" role="alert">
        {alertMessages.misconfigured}
      </Alert>
    );
  }
  const groups = [
    ...model.presets.groups.map((g) => ({
      id: g.id as string | null,
      label: g.label,
      description: g.description,
    })),
    { id: null, label: model.presets.groups.length > 0 ? 'Other rules' : 'Rules', description: undefined },
  ];
  const known = new Set(model.presets.groups.map((g) => g.id));
  const groupOf = (p: Preset) => (p.group && known.has(p.group) ? p.group : null);
  const visible = (index: number) => showAll || values.rules[index]?.enabled === true || kept.has(index);
  const hiddenCount = values.rules.filter((r, index) => !r.enabled && !kept.has(index)).length;
  const keep = (index: number) => setKept((set) => new Set(set).add(index));

  function renderGroups(shown: (index: number) => boolean) {
    return groups.map((group) => {
      const members = model.presetList
        .map((entry, index) => ({ ...entry, index }))
        .filter(({ preset, index }) => groupOf(preset) === group.id && shown(index));
      if (members.length === 0) return null;
      return (
        <Stack key={group.id ?? 'ungrouped'} gap="xs">
          <Title order={5}>{group.label}</Title>
          {group.description ? (
            <Text size="sm" c="dimmed">
              {group.description}
            </Text>
          ) : null}
          {members.map(({ preset, list, index }) => (
            <RuleCard key={preset.id} preset={preset} list={list} index={index} form={form} onToggle={keep} />
          ))}
        </Stack>
      );
    });
  }

  return (
    <Stack gap="md">
      {form.errors.rules ? (
        <Alert color="red" variant="light" role="alert">
          {form.errors.rules}
        </Alert>
      ) : null}
      {renderGroups(visible)}
      {hiddenCount > 0 || showAll ? (
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={showAll}
          onClick={() => setShowAll((open) => !open)}
          style={{ alignSelf: 'flex-start' }}
        >
          {showAll ? 'Show only the rules that are on' : `Show ${hiddenCount} more rules (off)`}
        </Button>
      ) : null}
      {isAdmin ? (
        <Select
          label={
            <Group gap={6} component="span">
              Notify on
              <Badge size="xs" color="grape" variant="light" component="span">
                Admin only
              </Badge>
            </Group>
          }
          data={[
            { value: 'everyMatch', label: 'Every match' },
            { value: 'firstMatch', label: 'First match only' },
          ]}
          allowDeselect={false}
          maw={320}
          {...form.getInputProps('notifyOn')}
        />
      ) : null}
    </Stack>
  );
}
