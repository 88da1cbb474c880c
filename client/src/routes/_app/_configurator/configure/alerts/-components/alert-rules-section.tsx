import {
  Alert,
  Badge,
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
import { type Preset, registrationMessages } from '@resort/shared';
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

/** Rule presets of the template, by group, each with an enable switch and its typed input. */
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
  if (!model.presets) {
    return (
      <Alert color="red" variant="light" role="alert">
        {registrationMessages.misconfigured}
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

  return (
    <Stack gap="md">
      {form.errors.rules ? (
        <Alert color="red" variant="light" role="alert">
          {form.errors.rules}
        </Alert>
      ) : null}
      {groups.map((group) => {
        const members = model.presetList
          .map((entry, index) => ({ ...entry, index }))
          .filter(({ preset }) => groupOf(preset) === group.id);
        if (members.length === 0) return null;
        return (
          <Stack key={group.id ?? 'ungrouped'} gap="xs">
            <Title order={5}>{group.label}</Title>
            {group.description ? (
              <Text size="sm" c="dimmed">
                {group.description}
              </Text>
            ) : null}
            {members.map(({ preset, list, index }) => {
              const rule = values.rules[index];
              if (!rule) return null;
              return (
                <Card key={preset.id} withBorder padding="sm" data-testid="alert-rule">
                  <Group justify="space-between" align="flex-start" wrap="nowrap">
                    <Switch
                      label={preset.label}
                      description={preset.description}
                      checked={rule.enabled}
                      onChange={(e) => {
                        form.setFieldValue(`rules.${index}.enabled`, e.currentTarget.checked);
                        form.clearFieldError('rules');
                      }}
                    />
                    <Badge variant="light" color="gray">
                      {list === 'all' ? 'Must hold' : 'Any may hold'}
                    </Badge>
                  </Group>
                  {preset.input ? (
                    <div style={{ marginTop: 'var(--mantine-spacing-xs)', maxWidth: 320 }}>
                      <RuleInput preset={preset} rule={rule} index={index} form={form} />
                    </div>
                  ) : null}
                </Card>
              );
            })}
          </Stack>
        );
      })}
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
