import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { deriveOverrideFields, jsonTextSchema } from '@resort/shared';
import { useState } from 'react';
import { OverrideFieldEditor } from './override-field-editor.tsx';
import { blankField, type TemplateEditorForm } from './template-editor-model.ts';
import { appendFields } from './template-editor-transitions.ts';

const parsedOrNothing = (text: string): unknown => {
  const result = jsonTextSchema.safeParse(text);
  return result.success ? result.data : undefined;
};

/** Registration override fields: what an alert may change in the request, in display order. */
export function OverrideFieldsSection({ form }: { form: TemplateEditorForm }) {
  const [notice, setNotice] = useState<string | null>(null);
  const fields = form.getValues().editableFields;

  function derive() {
    const values = form.getValues();
    const query = parsedOrNothing(values.defaultQueryText);
    const result = deriveOverrideFields({
      defaultQuery: query && typeof query === 'object' ? (query as Record<string, unknown>) : {},
      defaultBody: parsedOrNothing(values.defaultBodyText),
      editableFields: values.editableFields.map((f) => ({ target: f.target, path: f.path })),
    });
    if (!result.ok) {
      setNotice(result.message);
      return;
    }
    setNotice(null);
    form.setFieldValue('editableFields', appendFields(values, result.fields));
  }

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Fields an alert may override, written at their target and path when the request is built.
      </Text>
      {fields.map((field, index) => (
        <OverrideFieldEditor
          key={field.uid}
          form={form}
          index={index}
          count={fields.length}
          onMove={(from, to) => form.reorderListItem('editableFields', { from, to })}
        />
      ))}
      {notice ? (
        <Alert color="yellow" variant="light" role="alert">
          {notice}
        </Alert>
      ) : null}
      <Group>
        <Button variant="light" size="xs" onClick={() => form.insertListItem('editableFields', blankField())}>
          Add override field
        </Button>
        <Button variant="default" size="xs" onClick={derive}>
          Derive fields from the default query and body
        </Button>
      </Group>
    </Stack>
  );
}
