import { Radio, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { FieldType } from '@resort/shared';
import { fieldRefKey, type TemplateEditorForm } from './template-editor-model.ts';

/**
 * The stay (docs/product.md, "Stay windows"): which override fields carry the check-in and the
 * check-out or number of nights, so alerts may watch flexible dates, and an optional booking link.
 */
export function StaySection({ form }: { form: TemplateEditorForm }) {
  const { editableFields, stay } = form.getValues();
  const choices = (type: FieldType) =>
    editableFields
      .filter((f) => f.fieldType === type && f.path.trim() !== '' && !f.repeatable)
      .map((f) => ({ value: fieldRefKey(f), label: `${f.label || f.path} (${f.target} ${f.path})` }));
  const endType: FieldType = stay.end === 'nights' ? 'NUMBER' : 'DATE';
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Name the fields that carry a stay and alerts on this template may watch flexible dates: every stay of
        a window, each written into these fields.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Check-in field"
          data={[{ value: '', label: 'None: fixed dates only' }, ...choices('DATE')]}
          allowDeselect={false}
          {...form.getInputProps('stay.checkIn')}
        />
        <Radio.Group
          label="The stay ends by"
          value={stay.end}
          onChange={(value) => {
            form.setFieldValue('stay.end', value as 'checkOut' | 'nights');
            form.setFieldValue('stay.endField', '');
          }}
        >
          <Stack gap={4} mt={4}>
            <Radio value="checkOut" label="A check-out date" />
            <Radio value="nights" label="A number of nights" />
          </Stack>
        </Radio.Group>
        <Select
          label={stay.end === 'nights' ? 'Nights field' : 'Check-out field'}
          data={choices(endType)}
          placeholder="Choose a field"
          {...form.getInputProps('stay.endField')}
        />
        <TextInput
          label="Booking link"
          description="Optional. Placeholders: {checkIn}, {checkOut}, {nights} and party fields such as {adults}."
          {...form.getInputProps('stay.bookingUrl')}
        />
      </SimpleGrid>
    </Stack>
  );
}
