import { Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { sampleMessages } from '@resort/shared';
import { useEffect } from 'react';
import type { Watchlist } from '../../../sample/sample-data.ts';
import { type Quarter, quarters } from '../../../sample/sample-labels.ts';

export type WatchlistDraft = Omit<Watchlist, 'id'> & { id?: string };

const blank: WatchlistDraft = { name: '', resort: '', quarter: 'Q1', notes: '' };

export function WatchlistFormModal({
  draft,
  onClose,
  onSave,
}: {
  draft: WatchlistDraft | null;
  onClose: () => void;
  onSave: (watchlist: WatchlistDraft) => void;
}) {
  const form = useForm<WatchlistDraft>({
    mode: 'controlled',
    initialValues: blank,
    validate: { name: (value) => (value.trim() ? null : sampleMessages.nameRequired) },
  });
  const { setValues, clearErrors } = form;

  useEffect(() => {
    if (draft) {
      setValues(draft);
      clearErrors();
    }
  }, [draft, setValues, clearErrors]);

  const submit = form.onSubmit((values) =>
    onSave({ ...values, name: values.name.trim(), resort: values.resort.trim(), notes: values.notes.trim() }),
  );

  return (
    <Modal
      opened={draft !== null}
      onClose={onClose}
      title={draft?.id ? 'Edit watchlist' : 'Create watchlist'}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <TextInput label="Resort" {...form.getInputProps('resort')} />
          <Select
            label="Quarter"
            data={[...quarters]}
            allowDeselect={false}
            {...form.getInputProps('quarter')}
            onChange={(value) => form.setFieldValue('quarter', (value ?? 'Q1') as Quarter)}
          />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Save watchlist</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export const emptyWatchlist = blank;
