import { Alert, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  notificationMessages as m,
  type NotificationServiceType,
  notificationServiceTypes,
} from '@resort/shared';
import { useState } from 'react';
import { errorMessage } from '@/api/http.ts';
import { serviceTypeLabels } from '@/components/service-type-labels.ts';
import { NotificationServiceFields } from './notification-service-fields.tsx';
import {
  emptyValues,
  firstFreeType,
  formServiceTypes,
  isTypeTaken,
  type NotificationServiceFormValues,
  type NotificationServicePayload,
  toPayload,
  validateServiceForm,
} from './notification-service-form-model.ts';

interface Outcome {
  tone: 'success' | 'error';
  message: string;
}

/**
 * Add or test a notification service (docs/product.md, "Validation and messages"); with `editing`, change a saved one instead:
 * its type is fixed, and saving calls `onCreate` with the edited payload.
 */
export function NotificationServiceForm({
  configuredTypes,
  onCreate,
  onTest,
  editing,
}: {
  configuredTypes: readonly NotificationServiceType[];
  onCreate: (payload: NotificationServicePayload) => Promise<unknown>;
  onTest: (payload: NotificationServicePayload) => Promise<{ message?: string } | null | undefined>;
  editing?: { values: NotificationServiceFormValues; submitLabel: string; savedMessage: string };
}) {
  const form = useForm<NotificationServiceFormValues>({
    mode: 'controlled',
    initialValues: editing?.values ?? emptyValues(firstFreeType(configuredTypes)),
    validate: validateServiceForm,
    // A field's error goes as soon as the field changes; the whole form is validated again on submit.
    clearInputErrorOnChange: true,
  });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState<'create' | 'test' | null>(null);
  const { type } = form.getValues();

  function changeType(next: string | null) {
    if (!next) return;
    // Changing type resets the fields but keeps the label.
    form.setValues(emptyValues(next as NotificationServiceType, form.getValues().label));
    form.clearErrors();
    setOutcome(null);
  }

  async function run(action: 'create' | 'test') {
    setOutcome(null);
    const values = form.getValues();
    if (action === 'create' && !editing && isTypeTaken(values.type, configuredTypes)) {
      setOutcome({ tone: 'error', message: m.channelAlreadyConfigured(values.type) });
      return;
    }
    if (form.validate().hasErrors) return;
    setBusy(action);
    try {
      if (action === 'create' && editing) {
        await onCreate(toPayload(values));
        setOutcome({ tone: 'success', message: editing.savedMessage });
        form.resetDirty();
      } else if (action === 'create') {
        await onCreate(toPayload(values));
        setOutcome({ tone: 'success', message: m.serviceCreated(values.type) });
        const nextType = isTypeTaken(values.type, [...configuredTypes, values.type])
          ? firstFreeType([...configuredTypes, values.type])
          : values.type;
        form.setValues(emptyValues(nextType));
        form.resetDirty();
      } else {
        const answer = await onTest(toPayload(values));
        setOutcome({ tone: 'success', message: answer?.message || m.testDispatched });
      }
    } catch (error) {
      const fallback = action === 'test' ? m.testFailed : editing ? m.updateFailed : m.createFailed;
      setOutcome({ tone: 'error', message: errorMessage(error, fallback) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run('create');
      }}
    >
      <Stack gap="sm">
        {outcome ? (
          <Alert
            color={outcome.tone === 'success' ? 'teal' : 'red'}
            role={outcome.tone === 'error' ? 'alert' : 'status'}
          >
            {outcome.message}
          </Alert>
        ) : null}
        <Group grow align="flex-start">
          <Select
            label="Type"
            value={type}
            onChange={changeType}
            allowDeselect={false}
            disabled={editing !== undefined}
            data={(editing === undefined ? formServiceTypes : notificationServiceTypes).map((t) => ({
              value: t,
              label: serviceTypeLabels[t],
              disabled: isTypeTaken(t, configuredTypes),
            }))}
          />
          <TextInput label="Label" placeholder="Optional" {...form.getInputProps('label')} />
        </Group>
        <NotificationServiceFields form={form} />
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => void run('test')}
            loading={busy === 'test'}
            disabled={busy === 'create'}
          >
            Send test
          </Button>
          <Button type="submit" loading={busy === 'create'} disabled={busy === 'test'}>
            {editing?.submitLabel ?? 'Add service'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
