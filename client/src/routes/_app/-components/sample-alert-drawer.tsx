import { Button, Drawer, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { sampleMessages } from '@resort/shared';
import { useEffect } from 'react';
import type { SampleAlert } from '../../../sample/sample-data.ts';
import {
  discountLabels,
  discounts,
  sampleStatuses,
  sampleStatusLabels,
} from '../../../sample/sample-labels.ts';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const required = (value: string) => (value.trim() ? null : sampleMessages.required);

/** The edit drawer for local sample alerts (SPEC.md §2): label, from date and family are required. */
export function SampleAlertDrawer({
  alert,
  onClose,
  onSave,
}: {
  alert: SampleAlert | null;
  onClose: () => void;
  onSave: (alert: SampleAlert) => void;
}) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { label: '', from: '', to: '', family: '', discount: 'standard', status: 'wait' },
    validate: {
      label: required,
      family: required,
      from: (value) => required(value) ?? (isoDate.test(value.trim()) ? null : 'Use the YYYY-MM-DD format.'),
      to: (value) => (!value.trim() || isoDate.test(value.trim()) ? null : 'Use the YYYY-MM-DD format.'),
    },
  });
  const { setValues, resetDirty } = form;

  useEffect(() => {
    if (!alert) return;
    setValues({
      label: alert.label,
      from: alert.dates.from,
      to: alert.dates.to,
      family: alert.family,
      discount: alert.discount,
      status: alert.status,
    });
    resetDirty();
  }, [alert, setValues, resetDirty]);

  const submit = form.onSubmit((values) => {
    if (!alert) return;
    onSave({
      ...alert,
      label: values.label.trim(),
      family: values.family.trim(),
      dates: { ...alert.dates, from: values.from.trim(), to: values.to.trim() || values.from.trim() },
      discount: values.discount as SampleAlert['discount'],
      status: values.status as SampleAlert['status'],
    });
  });

  return (
    <Drawer opened={alert !== null} onClose={onClose} title="Edit sample alert" position="right">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Label" required {...form.getInputProps('label')} />
          <TextInput label="From date" placeholder="YYYY-MM-DD" required {...form.getInputProps('from')} />
          <TextInput label="To date" placeholder="YYYY-MM-DD" {...form.getInputProps('to')} />
          <TextInput label="Family" required {...form.getInputProps('family')} />
          <Select
            label="Discount"
            data={discounts.map((d) => ({ value: d, label: discountLabels[d] }))}
            allowDeselect={false}
            {...form.getInputProps('discount')}
          />
          <Select
            label="Status"
            data={sampleStatuses.map((s) => ({ value: s, label: sampleStatusLabels[s] }))}
            allowDeselect={false}
            {...form.getInputProps('status')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Save</Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
