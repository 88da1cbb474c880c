import { Button, Card, Checkbox, Group, Stack, Text } from '@mantine/core';
import type { Preset } from '@resort/shared';
import { useState } from 'react';

export const pickerTexts = {
  generated: (count: number) =>
    `${count} rules generated from the test response. Tick the ones to add to the template.`,
  add: (count: number) => (count === 1 ? 'Add 1 rule' : `Add ${count} rules`),
  added: (count: number) => `${count} ${count === 1 ? 'rule' : 'rules'} added to "All of these".`,
} as const;

const condition = (rule: Preset) =>
  [
    rule.condition.path,
    rule.condition.operator,
    rule.condition.value === undefined ? '' : String(rule.condition.value),
  ]
    .filter(Boolean)
    .join(' ');

/**
 * The rules "Generate basic alert rules" found, as a checklist of one line each: the admin picks
 * the ones worth keeping before any is added (adding all twelve would make a long editor).
 */
export function GeneratedRulesPicker({
  rules,
  onAdd,
  onCancel,
}: {
  rules: readonly Preset[];
  onAdd: (chosen: Preset[]) => void;
  onCancel: () => void;
}) {
  const [chosen, setChosen] = useState<string[]>(() => rules.map((r) => r.id));
  return (
    <Card withBorder padding="sm" role="group" aria-label="Generated rules">
      <Stack gap="xs">
        <Text size="sm" role="status">
          {pickerTexts.generated(rules.length)}
        </Text>
        <Checkbox.Group value={chosen} onChange={setChosen} aria-label="Generated rules to add">
          <Stack gap={6}>
            {rules.map((rule) => (
              <Checkbox
                key={rule.id}
                value={rule.id}
                label={rule.label}
                description={
                  <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>
                    {condition(rule)}
                  </span>
                }
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group gap="xs">
          <Button
            size="xs"
            disabled={chosen.length === 0}
            onClick={() => onAdd(rules.filter((r) => chosen.includes(r.id)))}
          >
            {pickerTexts.add(chosen.length)}
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => setChosen(chosen.length === rules.length ? [] : rules.map((r) => r.id))}
          >
            {chosen.length === rules.length ? 'Untick all' : 'Tick all'}
          </Button>
          <Button size="xs" variant="subtle" color="gray" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
