import { z } from 'zod';
import { isValidRegex } from './safe-regex.ts';

/**
 * Rules ("watch") shared by templates (presets) and alerts (the alert's own watch config).
 * docs/product.md, "Polling and rules" gives the semantics; the evaluator lives in evaluator.ts.
 */
export const watchMessages = {
  debounceRange: 'Debounce must be a whole number between 0 and 3600 seconds.',
  ruleIdRequired: 'Rule id is required.',
  ruleLabelRequired: 'Rule label is required.',
  rulePathRequired: 'Rule path is required.',
  inputLabelRequired: 'Input label is required.',
  atLeastOnePreset: 'At least one watch preset is required in either all or any',
  invalidRegex: 'Regular expression is not valid.',
} as const;

export const operators = [
  'exists',
  'equals',
  'not_equals',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'changed',
  'not_changed',
  'includes',
  'regex',
] as const;
export type Operator = (typeof operators)[number];

/** The subset the admin template editor offers. */
export const editorOperators = ['exists', 'lte', 'gte', 'lt', 'gt', 'equals', 'not_equals'] as const;

export const notifyOnValues = ['firstMatch', 'everyMatch'] as const;
export type NotifyOn = (typeof notifyOnValues)[number];

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type Scalar = z.infer<typeof scalar>;

export const debounceSchema = z
  .number({ error: watchMessages.debounceRange })
  .int(watchMessages.debounceRange)
  .min(0, watchMessages.debounceRange)
  .max(3600, watchMessages.debounceRange);

export const ignoreChangeSchema = z.object({ from: scalar.optional(), to: scalar.optional() });

/** One condition on the JSON answer: `path` selects values (dot/bracket notation, `*` over arrays). */
export const conditionSchema = z
  .object({
    path: z.string({ error: watchMessages.rulePathRequired }).trim().min(1, watchMessages.rulePathRequired),
    label: z.string().optional(),
    description: z.string().optional(),
    operator: z.enum(operators),
    value: z.union([scalar, z.array(scalar)]).optional(),
    ignoreChanges: z.array(ignoreChangeSchema).optional(),
    requiredPaths: z.array(z.string().min(1)).optional(),
    /** On an alert, the template preset this condition came from. */
    presetId: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    // Checked at write time so a bad pattern is a validation error, never a failing poll.
    if (
      c.operator === 'regex' &&
      c.value !== undefined &&
      !(typeof c.value === 'string' && isValidRegex(c.value))
    ) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: watchMessages.invalidRegex });
    }
  });
export type Condition = z.infer<typeof conditionSchema>;

/** The alert's own rules. */
export const watchConfigSchema = z.object({
  all: z.array(conditionSchema).default([]),
  any: z.array(conditionSchema).default([]),
  notifyOn: z.enum(notifyOnValues).default('everyMatch'),
  notifyOnResolved: z.boolean().default(false),
  debounceSeconds: debounceSchema.default(0),
});
export type WatchConfig = z.infer<typeof watchConfigSchema>;
export type WatchConfigInput = z.input<typeof watchConfigSchema>;

export const presetInputSchema = z.object({
  type: z.enum(['string', 'number', 'boolean']),
  label: z
    .string({ error: watchMessages.inputLabelRequired })
    .trim()
    .min(1, watchMessages.inputLabelRequired),
  description: z.string().optional(),
  required: z.boolean().optional(),
  defaultValue: scalar.optional(),
});
export type PresetInput = z.infer<typeof presetInputSchema>;

export const presetSchema = z.object({
  id: z.string({ error: watchMessages.ruleIdRequired }).trim().min(1, watchMessages.ruleIdRequired),
  label: z.string({ error: watchMessages.ruleLabelRequired }).trim().min(1, watchMessages.ruleLabelRequired),
  description: z.string().optional(),
  group: z.string().nullable().optional(),
  alertGroupId: z.string().nullable().optional(),
  condition: conditionSchema,
  /** When present, the user's input becomes the condition's value. */
  input: presetInputSchema.optional(),
  defaultEnabled: z.boolean().optional(),
});
export type Preset = z.infer<typeof presetSchema>;

export const presetGroupSchema = z.object({
  id: z.string().trim().min(1, watchMessages.ruleIdRequired),
  label: z.string().trim().min(1, watchMessages.ruleLabelRequired),
  description: z.string().optional(),
});

/** Template side: rule presets the alert form offers. */
export const watchPresetsSchema = z
  .object({
    notifyOn: z.enum(notifyOnValues).default('everyMatch'),
    notifyOnResolved: z.boolean().default(false),
    debounceSeconds: debounceSchema.default(0),
    groups: z.array(presetGroupSchema).default([]),
    all: z.array(presetSchema).default([]),
    any: z.array(presetSchema).default([]),
  })
  .refine((p) => p.all.length + p.any.length > 0, { message: watchMessages.atLeastOnePreset, path: ['all'] });
export type WatchPresets = z.infer<typeof watchPresetsSchema>;
export type WatchPresetsInput = z.input<typeof watchPresetsSchema>;
