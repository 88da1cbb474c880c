import {
  Alert,
  Button,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { generateRules, generatorMessages, isSuccessfulTest, type Preset } from '@resort/shared';
import { useState } from 'react';
import type { TemplateTestAnswer } from '@/api/contracts.ts';
import { GeneratedRulesPicker, pickerTexts } from './generated-rules-picker.tsx';
import { PresetEditor } from './preset-editor.tsx';
import { RuleGroupsEditor } from './rule-groups-editor.tsx';
import { blankPreset, type RuleList, type TemplateEditorForm } from './template-editor-model.ts';
import { addGeneratedRules } from './template-editor-transitions.ts';

const lists: { list: RuleList; title: string; hint: string }[] = [
  { list: 'all', title: 'All of these', hint: 'Every enabled rule here must hold.' },
  { list: 'any', title: 'Any of these', hint: 'At least one enabled rule here must hold.' },
];

/** Alert rules: cadence, groups and the presets users enable on their alerts. */
export function TemplateRulesSection({
  form,
  testResult,
}: {
  form: TemplateEditorForm;
  testResult: TemplateTestAnswer | null;
}) {
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; message: string } | null>(null);
  const [candidates, setCandidates] = useState<Preset[] | null>(null);
  const presets = form.getValues().responseWatchPresets;
  const succeeded = isSuccessfulTest(testResult?.response);
  const listError = form.errors['responseWatchPresets.all'] ?? form.errors.responseWatchPresets;

  function generate() {
    const result = generateRules(testResult?.response);
    setNotice(null);
    if (!result.ok) {
      setNotice({ tone: 'error', message: result.message });
      return;
    }
    setCandidates(result.rules);
  }

  function add(chosen: Preset[]) {
    form.setFieldValue(
      'responseWatchPresets',
      addGeneratedRules(form.getValues().responseWatchPresets, chosen),
    );
    setCandidates(null);
    setNotice({ tone: 'success', message: pickerTexts.added(chosen.length) });
  }

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label="Notify on"
          data={[
            { value: 'everyMatch', label: 'Every match' },
            { value: 'firstMatch', label: 'First match' },
          ]}
          allowDeselect={false}
          {...form.getInputProps('responseWatchPresets.notifyOn')}
        />
        <NumberInput
          label="Debounce (seconds)"
          min={0}
          max={3600}
          allowDecimal={false}
          {...form.getInputProps('responseWatchPresets.debounceSeconds')}
        />
        <Switch
          label="Also notify when resolved"
          mt={30}
          {...form.getInputProps('responseWatchPresets.notifyOnResolved', { type: 'checkbox' })}
        />
      </SimpleGrid>
      <RuleGroupsEditor form={form} />
      {listError ? (
        <Alert color="red" variant="light" role="alert">
          {listError}
        </Alert>
      ) : null}
      {lists.map(({ list, title, hint }) => (
        <Stack gap="xs" key={list}>
          <Title order={5}>{title}</Title>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
          {presets[list].map((preset, index) => (
            <PresetEditor key={preset.uid} form={form} list={list} index={index} />
          ))}
          <Group>
            <Button
              size="xs"
              variant="light"
              onClick={() => form.insertListItem(`responseWatchPresets.${list}`, blankPreset())}
            >
              {`Add rule to "${title}"`}
            </Button>
          </Group>
        </Stack>
      ))}
      <Stack gap={4}>
        <Group>
          <Button variant="default" onClick={generate} disabled={!succeeded}>
            Generate basic alert rules
          </Button>
        </Group>
        {succeeded ? null : (
          <Text size="xs" c="dimmed">
            {generatorMessages.needSuccessfulTest}
          </Text>
        )}
        {candidates ? (
          <GeneratedRulesPicker
            key={candidates.map((r) => r.id).join()}
            rules={candidates}
            onAdd={add}
            onCancel={() => setCandidates(null)}
          />
        ) : null}
        {notice ? (
          <Alert
            color={notice.tone === 'error' ? 'red' : 'teal'}
            variant="light"
            role={notice.tone === 'error' ? 'alert' : 'status'}
          >
            {notice.message}
          </Alert>
        ) : null}
      </Stack>
    </Stack>
  );
}
