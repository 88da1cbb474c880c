import '@mantine/dates/styles.css';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type AlertPayload,
  alertListMessages,
  defaultChannelIds,
  alertMessages as m,
  type NotificationPreferences,
} from '@resort/shared';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { AlertRecord, AlertTestAnswer, TemplateGroupRecord, TemplateRecord } from '@/api/contracts.ts';
import { errorMessage } from '@/api/http.ts';
import { ConfirmModal } from '@/components/confirm-modal.tsx';
import { FeedbackBanner, useFeedback } from '@/components/feedback.tsx';
import { AdvancedSection } from './advanced-section.tsx';
import {
  type AlertFormValues,
  emptyAlertValues,
  fromAlert,
  templateModel,
  withGroup,
  withTemplate,
} from './alert-form-model.ts';
import { parseAlertForm } from './alert-form-payload.ts';
import { AlertRulesSection } from './alert-rules-section.tsx';
import { AlertTestResult } from './alert-test-result.tsx';
import { DeliverySection, type ServiceChoice } from './delivery-section.tsx';
import { DetailsSection } from './details-section.tsx';
import { OverrideFieldsSection } from './override-fields-section.tsx';
import { ResortTypeCard } from './resort-type-card.tsx';
import { TemplatePicker } from './template-picker.tsx';

export interface AlertFormProps {
  templates: readonly TemplateRecord[];
  groups: readonly TemplateGroupRecord[];
  templatesError: string | null;
  services: readonly ServiceChoice[];
  /** The account's notification preferences: they decide whether e-mail and SMS are preselected. */
  preferences?: NotificationPreferences | undefined;
  isAdmin: boolean;
  /** The alert being edited; null when creating. */
  editing: AlertRecord | null;
  onSubmit: (payload: AlertPayload) => Promise<void>;
  onTest: (payload: AlertPayload) => Promise<AlertTestAnswer>;
  onCancel: () => void;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Title order={4} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function initialValues(props: AlertFormProps): AlertFormValues {
  const template = props.editing && props.templates.find((t) => t.id === props.editing?.templateId);
  if (props.editing && template) return fromAlert(props.editing, templateModel(template), new Date());
  return { ...emptyAlertValues(), notificationServiceIds: defaultIds(props.services, props.preferences) };
}

/**
 * A new alert notifies every active service of the account (e-mail and SMS as the preferences say)
 * unless the planner unticks some.
 */
const defaultIds = (services: readonly ServiceChoice[], prefs: NotificationPreferences | undefined) =>
  prefs ? defaultChannelIds(prefs, services) : services.filter((s) => s.isActive).map((s) => s.id);

export const noServiceWarning = {
  title: 'No notification service',
  message:
    'This alert notifies no one: no notification service is chosen. Save it anyway, or choose a service under Polling and notifications.',
  confirm: 'Save anyway',
} as const;

/** The alert create/edit form (docs/product.md, "Screens and routes"). */
export function AlertForm(props: AlertFormProps) {
  const { templates, editing } = props;
  const form = useForm<AlertFormValues>({ mode: 'controlled', initialValues: initialValues(props) });
  const values = form.getValues();
  const template = templates.find((t) => t.id === values.templateId) ?? null;
  const model = useMemo(() => (template ? templateModel(template) : null), [template]);
  const { feedback: bannerFeedback, show: showBanner, clear: clearBanner } = useFeedback();
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [testResult, setTestResult] = useState<AlertTestAnswer | null>(null);
  const [confirmNoService, setConfirmNoService] = useState(false);

  // The account's services may arrive after the form: preselect them once, unless already chosen.
  const preselected = useRef(editing !== null || values.notificationServiceIds.length > 0);
  useEffect(() => {
    const ids = defaultIds(props.services, props.preferences);
    if (preselected.current || ids.length === 0) return;
    preselected.current = true;
    form.setFieldValue('notificationServiceIds', ids);
  }, [props.services, props.preferences, form]);

  // The summary banner goes once the planner has fixed every field it was about.
  const errorCount = Object.keys(form.errors).length;
  const summaryShown = bannerFeedback?.message === m.requiredSummary;
  useEffect(() => {
    if (errorCount === 0 && summaryShown) clearBanner();
  }, [errorCount, summaryShown, clearBanner]);

  function check(forTest: boolean): AlertPayload | null {
    clearBanner();
    const parsed = parseAlertForm(form.getValues(), model, { forTest });
    if (parsed.ok) {
      form.clearErrors();
      return parsed.payload;
    }
    form.setErrors(parsed.errors);
    showBanner({ tone: 'error', message: model ? m.requiredSummary : m.chooseTemplateFirst });
    return null;
  }

  async function run(action: 'save' | 'test', confirmed = false) {
    const payload = check(action === 'test');
    if (!payload) return;
    const active = new Set(props.services.filter((s) => s.isActive).map((s) => s.id));
    const notified = (payload.notificationServiceIds ?? []).filter((id) => active.has(id));
    if (action === 'save' && !confirmed && notified.length === 0) {
      setConfirmNoService(true);
      return;
    }
    setBusy(action);
    try {
      if (action === 'save') await props.onSubmit(payload);
      else setTestResult(await props.onTest(payload));
    } catch (failure) {
      const fallback =
        action === 'test'
          ? alertListMessages.testFailed
          : editing
            ? alertListMessages.updateFailed
            : alertListMessages.createFailed;
      showBanner({ tone: 'error', message: errorMessage(failure, fallback) });
    } finally {
      setBusy(null);
    }
  }

  const needTemplate = (
    <Text size="sm" c="dimmed">
      {m.chooseTemplateFirst}
    </Text>
  );

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run('save');
      }}
    >
      <Stack gap="lg">
        <Section title="Template">
          <TemplatePicker
            templates={templates}
            groups={props.groups}
            groupId={values.templateGroupId}
            templateId={values.templateId}
            templateError={form.errors.templateId}
            loadError={props.templatesError}
            disabled={busy !== null}
            onGroupChange={(groupId) => form.setValues(withGroup(form.getValues(), groupId, templates))}
            onTemplateChange={(id) => {
              const next = templates.find((t) => t.id === id);
              form.setValues(
                next
                  ? withTemplate(form.getValues(), templateModel(next), new Date())
                  : { ...form.getValues(), templateId: null, fieldValues: [], rules: [] },
              );
              form.clearErrors();
              clearBanner();
              setTestResult(null);
            }}
          />
        </Section>
        <Section title="Trip and party">
          {model ? <OverrideFieldsSection form={form} model={model} /> : needTemplate}
        </Section>
        <Section title="Alert rules">
          {model ? (
            <AlertRulesSection key={values.templateId} form={form} model={model} isAdmin={props.isAdmin} />
          ) : (
            needTemplate
          )}
        </Section>
        <Section title="Resort">
          <ResortTypeCard templateName={template?.name ?? null} />
        </Section>
        <Section title="Polling and notifications">
          <DeliverySection form={form} services={props.services} />
        </Section>
        <Section title="Details">
          <DetailsSection form={form} />
        </Section>
        <Section title="Advanced request options">
          <AdvancedSection form={form} />
        </Section>
        {testResult ? (
          <Section title="Test result">
            <AlertTestResult result={testResult} />
          </Section>
        ) : null}
        <FeedbackBanner feedback={bannerFeedback} onClose={clearBanner} />
        <ConfirmModal
          opened={confirmNoService}
          title={noServiceWarning.title}
          message={noServiceWarning.message}
          confirmLabel={noServiceWarning.confirm}
          destructive={false}
          onCancel={() => setConfirmNoService(false)}
          onConfirm={() => {
            setConfirmNoService(false);
            void run('save', true);
          }}
        />
        <Group justify="space-between">
          <Group gap="xs">
            <Button
              variant="default"
              onClick={() => void run('test')}
              loading={busy === 'test'}
              disabled={busy === 'save'}
            >
              Test alert
            </Button>
            {editing ? (
              <Button variant="subtle" color="gray" onClick={props.onCancel} disabled={busy !== null}>
                Cancel editing
              </Button>
            ) : null}
          </Group>
          <Button type="submit" loading={busy === 'save'} disabled={busy === 'test'}>
            {editing ? 'Save alert' : 'Create alert'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
