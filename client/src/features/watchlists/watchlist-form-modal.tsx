import { Alert, Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { quarters, type Watchlist, watchlistCreateInput, watchlistMessages } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';

const formSchema = z.object({
  name: watchlistCreateInput.shape.name,
  resortCode: z.string(),
  quarter: z.string(),
  notes: z.string().max(2000, watchlistMessages.notesTooLong),
});
type FormValues = z.input<typeof formSchema>;

const blank: FormValues = { name: '', resortCode: '', quarter: '', notes: '' };

/** Create or edit a watchlist: name (required), resort from the templates' codes, quarter, notes. */
export function WatchlistFormModal({
  editing,
  opened,
  onClose,
  onSaved,
}: {
  /** The watchlist being edited; null to create one. */
  editing: Watchlist | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (watchlist: Watchlist, created: boolean) => void;
}) {
  const api = useApi();
  const templates = useQuery({ ...api.templates.list(), enabled: opened });
  const create = useMutation(api.watchlists.create());
  const update = useMutation(api.watchlists.update());
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: blank,
    validate: schemaResolver(formSchema, { sync: true }),
  });
  const { setValues, clearErrors } = form;
  const { reset: resetCreate } = create;
  const { reset: resetUpdate } = update;

  useEffect(() => {
    if (!opened) return;
    setValues(
      editing
        ? {
            name: editing.name,
            resortCode: editing.resortCode ?? '',
            quarter: editing.quarter ?? '',
            notes: editing.notes ?? '',
          }
        : blank,
    );
    clearErrors();
    resetCreate();
    resetUpdate();
  }, [opened, editing, setValues, clearErrors, resetCreate, resetUpdate]);

  const resorts = [...new Set((templates.data ?? []).map((t) => t.resortCode))].sort();
  const failure = create.error ?? update.error;

  const submit = form.onSubmit(async (values) => {
    const payload = {
      name: values.name,
      resortCode: values.resortCode || null,
      quarter: (values.quarter || null) as (typeof quarters)[number] | null,
      notes: values.notes || null,
    };
    try {
      const saved = editing
        ? await update.mutateAsync({ id: editing.id, ...payload })
        : await create.mutateAsync(payload);
      onSaved(saved, editing === null);
    } catch {
      // Shown below through the mutation's error.
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? 'Edit watchlist' : 'Create watchlist'}>
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure ? (
            <Alert color="red" role="alert">
              {errorMessage(failure, watchlistMessages.saveFailed)}
            </Alert>
          ) : null}
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <Select
            label="Resort"
            placeholder="Any resort"
            data={resorts}
            clearable
            searchable
            nothingFoundMessage="No resort codes in the templates yet."
            {...form.getInputProps('resortCode')}
            value={form.getValues().resortCode || null}
            onChange={(value) => form.setFieldValue('resortCode', value ?? '')}
          />
          <Select
            label="Quarter"
            placeholder="Any quarter"
            data={[...quarters]}
            clearable
            {...form.getInputProps('quarter')}
            value={form.getValues().quarter || null}
            onChange={(value) => form.setFieldValue('quarter', value ?? '')}
          />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              Save watchlist
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
