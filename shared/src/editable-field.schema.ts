import { z } from 'zod';

/** Fields of a template that an alert may override (docs/product.md, "Alerts, templates and other entities"). */
export const fieldMessages = {
  pathRequired: 'Path is required',
  labelRequired: 'Label is required',
  selectNeedsOption: 'Select fields require at least one option.',
  expectedNumeric: 'Expected a numeric value',
} as const;

export const fieldTargets = ['BODY', 'QUERY', 'HEADERS'] as const;
export type FieldTarget = (typeof fieldTargets)[number];

export const fieldTypes = ['STRING', 'NUMBER', 'BOOLEAN', 'DATE', 'SELECT'] as const;
export type FieldType = (typeof fieldTypes)[number];

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** A SELECT option: a value/label pair, or a plain value (its label is the value). */
export const selectOptionSchema = z.union([
  z.object({ value: scalar, label: z.string() }),
  scalar.transform((value) => ({ value, label: String(value) })),
]);

export const fieldRefSchema = z.object({
  target: z.enum(fieldTargets),
  path: z.string().trim().min(1, fieldMessages.pathRequired),
});
export type FieldRef = z.infer<typeof fieldRefSchema>;

/** Options of a repeatable field: the value is a list, sized by another field (e.g. child ages by children). */
export const repeatableOptionsSchema = z.object({
  repeatable: z.literal(true),
  repeatCountField: fieldRefSchema.optional(),
});
export type RepeatableOptions = z.infer<typeof repeatableOptionsSchema>;

export const editableFieldSchema = z
  .object({
    target: z.enum(fieldTargets),
    path: z.string({ error: fieldMessages.pathRequired }).trim().min(1, fieldMessages.pathRequired),
    label: z.string({ error: fieldMessages.labelRequired }).trim().min(1, fieldMessages.labelRequired),
    description: z.string().optional(),
    fieldType: z.enum(fieldTypes),
    required: z.boolean().optional(),
    defaultValue: z.union([scalar, z.array(scalar), z.null()]).optional(),
    options: z.union([z.array(selectOptionSchema), repeatableOptionsSchema]).optional(),
    displayOrder: z.number().int().optional(),
  })
  .superRefine((f, ctx) => {
    if (f.fieldType === 'SELECT' && !(Array.isArray(f.options) && f.options.length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: fieldMessages.selectNeedsOption });
    }
    if (
      f.fieldType === 'NUMBER' &&
      f.defaultValue !== undefined &&
      f.defaultValue !== null &&
      f.defaultValue !== ''
    ) {
      const values = Array.isArray(f.defaultValue) ? f.defaultValue : [f.defaultValue];
      if (values.some((v) => typeof v === 'boolean' || !Number.isFinite(Number(v)))) {
        ctx.addIssue({ code: 'custom', path: ['defaultValue'], message: fieldMessages.expectedNumeric });
      }
    }
  });
export type EditableField = z.infer<typeof editableFieldSchema>;
export type EditableFieldInput = z.input<typeof editableFieldSchema>;

export function isRepeatable(field: Pick<EditableField, 'options'>): field is EditableField & {
  options: RepeatableOptions;
} {
  return !!field.options && !Array.isArray(field.options) && field.options.repeatable === true;
}

const overrideValue = z.union([scalar, z.null(), z.array(z.union([scalar, z.null()]))]);

/**
 * An alert's override values, keyed by the editable field's path, per target. The request builder
 * writes each value at its field's target and path.
 */
export const overridesSchema = z.object({
  body: z.record(z.string(), overrideValue).optional(),
  query: z.record(z.string(), overrideValue).optional(),
  headers: z.record(z.string(), overrideValue).optional(),
});
export type Overrides = z.infer<typeof overridesSchema>;
