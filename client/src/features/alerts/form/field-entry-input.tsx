import { NumberInput, Select, Switch, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { type EditableField, localToday, partyRoleOf } from '@resort/shared';
import type { ReactNode } from 'react';
import type { EntryValue } from './alert-form-model.ts';

/** Party composition ranges (docs/product.md, "Limits and constants"), as input limits (the shared checks give the messages). */
const partyLimits = {
  adults: { min: 1, max: 10 },
  children: { min: 0, max: 10 },
  childAges: { min: 0, max: 17 },
} as const;

export interface EntryInputProps {
  field: EditableField;
  label: string;
  value: EntryValue;
  error?: ReactNode;
  withAsterisk?: boolean;
  onChange: (value: EntryValue) => void;
}

/** One value of an override field, with the input its type calls for. */
export function FieldEntryInput({ field, label, value, error, withAsterisk, onChange }: EntryInputProps) {
  const common = { label, error, withAsterisk, description: field.description };
  switch (field.fieldType) {
    case 'NUMBER': {
      const role = partyRoleOf(field);
      const limits = role ? partyLimits[role] : undefined;
      return (
        <NumberInput
          {...common}
          min={limits?.min}
          max={limits?.max}
          allowDecimal={!limits}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          onChange={(v) => onChange(v === '' ? null : v)}
        />
      );
    }
    case 'BOOLEAN':
      return (
        <Switch
          label={label}
          description={field.description}
          error={error}
          mt="md"
          checked={value === true || value === 'true'}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'DATE':
      return (
        <DateInput
          {...common}
          // Dates are future-only: past days cannot be picked.
          minDate={localToday()}
          valueFormat="YYYY-MM-DD"
          placeholder="YYYY-MM-DD"
          clearable
          value={typeof value === 'string' && value ? value : null}
          onChange={(v) => onChange(v)}
        />
      );
    case 'SELECT': {
      const options = Array.isArray(field.options) ? field.options : [];
      return (
        <Select
          {...common}
          data={options.map((o) => ({ value: String(o.value), label: o.label }))}
          clearable={!field.required}
          value={value === null || value === '' ? null : String(value)}
          onChange={(v) =>
            onChange(v === null ? null : (options.find((o) => String(o.value) === v)?.value ?? v))
          }
        />
      );
    }
    default:
      return (
        <TextInput
          {...common}
          value={value === null ? '' : String(value)}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
  }
}
