import { Button, Card, Group, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type GeneratorSampleInput,
  type TemplateCreateInput,
  type TemplateGeneratorInfo,
  templateMessages,
} from '@resort/shared';
import { type ReactNode, useState } from 'react';
import type { TemplateGroupRecord, TemplateRecord, TemplateTestAnswer } from '@/api/contracts.ts';
import { errorMessage } from '@/api/http.ts';
import { ConfirmModal } from '@/components/confirm-modal.tsx';
import { FeedbackBanner, useFeedback } from '@/components/feedback.tsx';
import { GeneratorPanel } from './generator-panel.tsx';
import { OverrideFieldsSection } from './override-fields-section.tsx';
import { StaySection } from './stay-section.tsx';
import { TemplateConfigSection } from './template-config-section.tsx';
import type { TemplateEditorValues, TemplateSource } from './template-editor-model.ts';
import { parseTemplateEditor, validateTemplateEditor } from './template-editor-payload.ts';
import { applySample } from './template-editor-transitions.ts';
import { toEditorValues } from './template-editor-values.ts';
import { TemplateRulesSection } from './template-rules-section.tsx';
import { TemplateTestCard } from './template-test-card.tsx';

export const templateEditorTexts = {
  fixFields: 'Fix the highlighted fields first.',
  saved: 'Template saved.',
  deleteConfirm: (name: string) => `Delete template "${name}"? This cannot be undone.`,
} as const;

export interface TemplateEditorProps {
  /** null in create mode. */
  template: TemplateRecord | null;
  groups: readonly TemplateGroupRecord[] | undefined;
  groupsError: string | null;
  generators: readonly TemplateGeneratorInfo[] | undefined;
  onSave: (data: TemplateCreateInput) => Promise<unknown>;
  onDelete: () => Promise<void>;
  onTest: (data: TemplateCreateInput) => Promise<TemplateTestAnswer>;
  onCreateGroup: (name: string) => Promise<TemplateGroupRecord>;
  onLoadSample: (input: GeneratorSampleInput) => Promise<unknown>;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Title order={3} mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** The template editor (docs/product.md, "Screens and routes"): configuration, alert rules, override fields and the live test. */
export function TemplateEditor(props: TemplateEditorProps) {
  const { template } = props;
  const form = useForm<TemplateEditorValues>({
    mode: 'controlled',
    initialValues: toEditorValues(template ?? undefined),
    validate: validateTemplateEditor,
  });
  const { feedback: bannerFeedback, show: showBanner, clear: clearBanner } = useFeedback();
  const [test, setTest] = useState<{
    result: TemplateTestAnswer | null;
    error: string | null;
    running: boolean;
  }>({
    result: null,
    error: null,
    running: false,
  });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [saving, setSaving] = useState(false);

  /** Validates the whole form with the shared schema; on failure the fields show their messages. */
  function parsed(): TemplateCreateInput | null {
    const result = parseTemplateEditor(form.getValues());
    if (result.ok) return result.data;
    form.setErrors(result.errors);
    showBanner({ tone: 'error', message: templateEditorTexts.fixFields });
    return null;
  }

  async function save() {
    clearBanner();
    const data = parsed();
    if (!data) return;
    setSaving(true);
    try {
      await props.onSave(data);
      form.resetDirty();
      if (template) showBanner({ tone: 'success', message: templateEditorTexts.saved });
    } catch (failure) {
      showBanner({ tone: 'error', message: errorMessage(failure, templateMessages.saveFailed) });
    } finally {
      setSaving(false);
    }
  }

  async function runTest() {
    const data = parsed();
    if (!data) return;
    clearBanner();
    setTest({ result: null, error: null, running: true });
    try {
      setTest({ result: await props.onTest(data), error: null, running: false });
    } catch (failure) {
      setTest({ result: null, error: errorMessage(failure, templateMessages.testFailed), running: false });
    }
  }

  async function remove() {
    setConfirmDelete(false);
    setDeleting(true);
    try {
      await props.onDelete();
    } catch (failure) {
      showBanner({ tone: 'error', message: errorMessage(failure, templateMessages.deleteFailed) });
      setDeleting(false);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <Stack gap="lg">
        <Section title="Template configuration">
          <Stack gap="md">
            <GeneratorPanel
              generators={props.generators}
              onLoadSample={props.onLoadSample}
              onApply={(sample: TemplateSource) => {
                form.setValues(applySample(form.getValues(), sample));
                form.clearErrors();
              }}
            />
            <TemplateConfigSection
              form={form}
              groups={props.groups}
              groupsError={props.groupsError}
              onCreateGroup={props.onCreateGroup}
            />
          </Stack>
        </Section>
        <Section title="Alert rules">
          <TemplateRulesSection form={form} testResult={test.result} />
        </Section>
        <Section title="Registration override fields">
          <OverrideFieldsSection form={form} />
        </Section>
        <Section title="Stay (flexible dates)">
          <StaySection form={form} />
        </Section>
        <Section title="Test result">
          <TemplateTestCard
            saved={template !== null}
            result={test.result}
            error={test.error}
            running={test.running}
            onRun={() => void runTest()}
          />
        </Section>
        <FeedbackBanner feedback={bannerFeedback} onClose={clearBanner} />
        <Group justify="space-between">
          {template ? (
            <Button color="red" variant="light" loading={deleting} onClick={() => setConfirmDelete(true)}>
              Delete template
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" loading={saving}>
            {template ? 'Save template' : 'Create template'}
          </Button>
        </Group>
      </Stack>
      <ConfirmModal
        opened={confirmDelete}
        title="Delete template"
        message={templateEditorTexts.deleteConfirm(template?.name ?? '')}
        confirmLabel="Delete"
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => void remove()}
      />
    </form>
  );
}
