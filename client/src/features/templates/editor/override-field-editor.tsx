import { Button, Card, Checkbox, Group, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { type FieldType, fieldTargets, fieldTypes } from '@resort/shared';
import { SelectOptionsEditor } from './select-options-editor.tsx';
import { fieldRefKey, type TemplateEditorForm } from './template-editor-model.ts';
import { changeFieldType } from './template-editor-transitions.ts';

function DefaultValueInput({ form, index }: { form: TemplateEditorForm; index: number }) {
  const field = form.getValues().editableFields[index];
  const path = `editableFields.${index}.defaultValue` as const;
  if (!field) return null;
  const props = form.getInputProps(path);
  if (field.fieldType === 'BOOLEAN' && !field.repeatable) {
    return (
      <Select
        label="Default value"
        data={['true', 'false']}
        clearable
        {...props}
        value={props.value || null}
      />
    );
  }
  if (field.fieldType === 'SELECT') {
    const data = [...new Set(field.options.map((o) => o.value.trim()).filter(Boolean))];
    return <Select label="Default value" data={data} clearable {...props} value={props.value || null} />;
  }
  return (
    <TextInput
      label="Default value"
      placeholder={
        field.repeatable ? 'Comma-separated entries' : field.fieldType === 'DATE' ? 'YYYY-MM-DD' : undefined
      }
      {...props}
    />
  );
}

/** One override field: where it writes, how it is labelled, its type and default, its options. */
export function OverrideFieldEditor({
  form,
  index,
  count,
  onMove,
}: {
  form: TemplateEditorForm;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
}) {
  const fields = form.getValues().editableFields;
  const field = fields[index];
  if (!field) return null;
  const base = `editableFields.${index}` as const;
  const counters = fields
    .filter((f, i) => i !== index && f.fieldType === 'NUMBER' && !f.repeatable && f.path.trim())
    .map((f) => ({ value: fieldRefKey(f), label: `${f.label || f.path} (${f.target} ${f.path})` }));

  return (
    <Card withBorder padding="sm" data-testid="override-field">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="xs">
        <Select
          label="Target"
          data={[...fieldTargets]}
          allowDeselect={false}
          {...form.getInputProps(`${base}.target`)}
        />
        <TextInput
          label="Path"
          withAsterisk
          placeholder="party.adults"
          {...form.getInputProps(`${base}.path`)}
        />
        <TextInput label="Label" withAsterisk {...form.getInputProps(`${base}.label`)} />
        <Select
          label="Type"
          data={[...fieldTypes]}
          allowDeselect={false}
          value={field.fieldType}
          onChange={(next) => next && form.setFieldValue(base, changeFieldType(field, next as FieldType))}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
        <TextInput label="Description" {...form.getInputProps(`${base}.description`)} />
        <DefaultValueInput form={form} index={index} />
      </SimpleGrid>
      <Group mt="sm" gap="lg" align="flex-end">
        <Switch label="Required" {...form.getInputProps(`${base}.required`, { type: 'checkbox' })} />
        {field.fieldType !== 'SELECT' ? (
          <Checkbox
            label="Repeatable (a list of entries)"
            {...form.getInputProps(`${base}.repeatable`, { type: 'checkbox' })}
          />
        ) : null}
        {field.repeatable && field.fieldType !== 'SELECT' ? (
          <Select
            label="Entries counted by"
            placeholder="No count field"
            data={counters}
            clearable
            {...form.getInputProps(`${base}.repeatCountField`)}
            value={field.repeatCountField || null}
            onChange={(v) => form.setFieldValue(`${base}.repeatCountField`, v ?? '')}
          />
        ) : null}
      </Group>
      {field.fieldType === 'SELECT' ? (
        <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
          <SelectOptionsEditor form={form} index={index} />
        </div>
      ) : null}
      <Group justify="flex-end" gap="xs" mt="sm">
        <Button size="xs" variant="subtle" disabled={index === 0} onClick={() => onMove(index, index - 1)}>
          Move up
        </Button>
        <Button
          size="xs"
          variant="subtle"
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
        >
          Move down
        </Button>
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={() => form.removeListItem('editableFields', index)}
        >
          Remove field
        </Button>
      </Group>
    </Card>
  );
}
