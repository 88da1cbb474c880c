import { Alert, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  type GeneratorSampleInput,
  generatorMessages,
  type TemplateGeneratorInfo,
  templateDraftFromSample,
  templateMessages,
} from '@resort/shared';
import { useState } from 'react';
import { errorMessage } from '@/api/http.ts';
import type { TemplateSource } from './template-editor-model.ts';

/**
 * Fill the form from a template generator: pick one, optionally paste a source URL (a booking page
 * or an availability API URL) and apply the sample it returns.
 */
export function GeneratorPanel({
  generators,
  onLoadSample,
  onApply,
}: {
  generators: readonly TemplateGeneratorInfo[] | undefined;
  onLoadSample: (input: GeneratorSampleInput) => Promise<unknown>;
  onApply: (template: TemplateSource) => void;
}) {
  const [generatorId, setGeneratorId] = useState<string | null>(null);
  const [sourceUrl, setSourceUrl] = useState('');
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = generators?.find((g) => g.id === generatorId);

  async function load() {
    if (!generatorId) {
      setNotice({ tone: 'error', message: generatorMessages.selectTemplate });
      return;
    }
    setBusy(true);
    setNotice(null);
    try {
      const url = sourceUrl.trim();
      const sample = await onLoadSample(url ? { id: generatorId, sourceUrl: url } : { id: generatorId });
      const draft = templateDraftFromSample(sample);
      if (!draft.ok) {
        setNotice({ tone: 'error', message: draft.message });
        return;
      }
      onApply(draft.template as TemplateSource);
      setNotice({ tone: 'success', message: `Sample from "${chosen?.label ?? generatorId}" applied.` });
    } catch (failure) {
      setNotice({ tone: 'error', message: errorMessage(failure, templateMessages.generatorLoadFailed) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Template generator"
          placeholder="Choose a generator"
          data={(generators ?? []).map((g) => ({ value: g.id, label: g.label }))}
          value={generatorId}
          onChange={setGeneratorId}
          style={{ minWidth: 220 }}
        />
        <TextInput
          label="Source URL (optional)"
          placeholder="https://resort.example.com/book?checkIn=…"
          value={sourceUrl}
          onChange={(event) => setSourceUrl(event.currentTarget.value)}
          style={{ flex: 1, minWidth: 240 }}
        />
        <Button variant="default" onClick={() => void load()} loading={busy}>
          Load sample
        </Button>
      </Group>
      {chosen ? (
        <Text size="xs" c="dimmed">
          {chosen.description}
        </Text>
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
  );
}
