import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { isRepeatable, partyRoleOf, stayFieldKeys } from '@resort/shared';
import type { AlertForm, FieldValue, TemplateModel } from './alert-form-model.ts';
import { linkedCount } from './alert-form-payload.ts';
import { OverrideFieldInput } from './override-field-input.tsx';
import { StayWindowSection } from './stay-window-section.tsx';

/**
 * The template's override fields by type. Party composition (adults, children, child ages) is
 * grouped apart from the trip's other details.
 */
export function OverrideFieldsSection({ form, model }: { form: AlertForm; model: TemplateModel }) {
  const values = form.getValues().fieldValues;
  // With flexible dates the window replaces the stay fields.
  const hidden = form.getValues().stayWindow ? stayFieldKeys(model.stay) : new Set<string>();
  const indexed = model.fields
    .map((field, index) => ({ field, index }))
    .filter(({ field }) => !hidden.has(`${field.target}:${field.path}`));
  const party = indexed.filter(({ field }) => partyRoleOf(field) !== null);
  const trip = indexed.filter(({ field }) => partyRoleOf(field) === null);

  const render = (items: typeof indexed) =>
    items.map(({ field, index }) => (
      <div
        key={`${field.target}:${field.path}`}
        style={isRepeatable(field) ? { gridColumn: '1 / -1' } : undefined}
      >
        <OverrideFieldInput
          field={field}
          value={values[index] ?? null}
          count={linkedCount(field, model.fields, values)}
          error={form.errors[`fieldValues.${index}`]}
          onChange={(value: FieldValue) => {
            form.setFieldValue(`fieldValues.${index}`, value);
            form.clearFieldError(`fieldValues.${index}`);
          }}
        />
      </div>
    ));

  if (model.fields.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This template has no fields to override: its defaults are used as they are.
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {model.stay ? <StayWindowSection form={form} /> : null}
      {trip.length > 0 ? <SimpleGrid cols={{ base: 1, sm: 2 }}>{render(trip)}</SimpleGrid> : null}
      {party.length > 0 ? (
        <Stack gap="xs" role="group" aria-label="Party composition">
          <Title order={5}>Party composition</Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>{render(party)}</SimpleGrid>
        </Stack>
      ) : null}
    </Stack>
  );
}
