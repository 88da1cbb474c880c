import {
  type EditableFieldInput,
  type FieldTarget,
  type FieldType,
  jsonTextSchema,
  type Operator,
  type PresetInput,
  type TemplateCreateInput,
  type TemplateCreateInputRaw,
  templateEditorSchema,
  type WatchPresetsInput,
} from '@resort/shared';
import {
  type FieldDraft,
  type InputDraft,
  type OptionDraft,
  type PresetDraft,
  type TemplateEditorValues,
  valuelessOperators,
} from './template-editor-model.ts';

type Scalar = string | number | boolean;
type Errors = Record<string, string>;

/** A number where one was typed, else the text itself so the schema names the problem. */
function numberOrText(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

function booleanOrText(text: string): boolean | string {
  const t = text.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : text.trim();
}

/** Blank is "no number" (NaN), which the schema refuses with its own message. */
const requiredNumber = (v: number | string) => (typeof v === 'number' ? v : Number(v.trim() || Number.NaN));

function typedEntry(text: string, type: FieldType): Scalar {
  if (type === 'NUMBER') return numberOrText(text) ?? '';
  if (type === 'BOOLEAN') return booleanOrText(text);
  return text.trim();
}

function fieldDefault(field: FieldDraft): EditableFieldInput['defaultValue'] {
  if (field.repeatable) {
    const entries = field.defaultValue
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    return entries.length > 0 ? entries.map((e) => typedEntry(e, field.fieldType)) : undefined;
  }
  return field.defaultValue.trim() === '' ? undefined : typedEntry(field.defaultValue, field.fieldType);
}

function optionValue(option: OptionDraft): Scalar {
  const text = option.value.trim();
  if (option.valueType === 'number' && Number.isFinite(Number(text))) return Number(text);
  if (option.valueType === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

function parseFieldRef(key: string): { target: FieldTarget; path: string } | undefined {
  const at = key.indexOf(':');
  return at > 0 ? { target: key.slice(0, at) as FieldTarget, path: key.slice(at + 1) } : undefined;
}

function fieldOptions(field: FieldDraft): EditableFieldInput['options'] {
  if (field.fieldType === 'SELECT') {
    // A blank option offers nothing: a SELECT with only blanks has no options, which the schema refuses.
    return field.options
      .filter((o) => o.value.trim() !== '')
      .map((o) => ({ value: optionValue(o), label: o.label.trim() || o.value.trim() }));
  }
  if (!field.repeatable) return undefined;
  const ref = parseFieldRef(field.repeatCountField);
  return ref ? { repeatable: true, repeatCountField: ref } : { repeatable: true };
}

function toField(field: FieldDraft, index: number): EditableFieldInput {
  const description = field.description.trim();
  return {
    target: field.target,
    path: field.path,
    label: field.label,
    ...(description ? { description } : {}),
    fieldType: field.fieldType,
    required: field.required,
    defaultValue: fieldDefault(field),
    options: fieldOptions(field),
    displayOrder: index,
  };
}

/** The comparison value as the operator reads it: numbers for comparisons, typed scalars for equality. */
export function conditionValue(operator: Operator, text: string): Scalar | Scalar[] | undefined {
  const t = text.trim();
  if (valuelessOperators.includes(operator) || t === '') return undefined;
  if (t.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (Array.isArray(parsed)) return parsed as Scalar[];
    } catch {
      // Not a list after all: compare with the text.
    }
  }
  if (['gt', 'gte', 'lt', 'lte'].includes(operator)) return numberOrText(t);
  if (operator === 'equals' || operator === 'not_equals') {
    const b = booleanOrText(t);
    return typeof b === 'boolean' ? b : (numberOrText(t) ?? t);
  }
  return t;
}

function inputDefault(input: InputDraft): Scalar | undefined {
  if (input.defaultValue.trim() === '') return undefined;
  if (input.type === 'number') return numberOrText(input.defaultValue);
  if (input.type === 'boolean') return booleanOrText(input.defaultValue);
  return input.defaultValue;
}

function toInput(input: InputDraft): PresetInput {
  const description = input.description.trim();
  return {
    type: input.type,
    label: input.label,
    ...(description ? { description } : {}),
    required: input.required,
    defaultValue: inputDefault(input),
  };
}

function toPreset(p: PresetDraft) {
  const c = p.condition;
  const text = (s: string) => (s.trim() ? s.trim() : undefined);
  return {
    id: p.id,
    label: p.label,
    description: text(p.description),
    group: p.group,
    alertGroupId: p.alertGroupId,
    condition: {
      path: c.path,
      label: text(c.label),
      description: text(c.description),
      operator: c.operator,
      value: conditionValue(c.operator, c.value),
      ignoreChanges: c.ignoreChanges,
      requiredPaths: c.requiredPaths,
    },
    input: p.hasInput ? toInput(p.input) : undefined,
    defaultEnabled: p.defaultEnabled,
  };
}

const jsonBoxes = [
  ['defaultHeadersText', 'defaultHeaders'],
  ['defaultQueryText', 'defaultQuery'],
  ['defaultBodyText', 'defaultBody'],
] as const;

/** The stay as the API takes it: null when no check-in field is named. */
function toStay(draft: TemplateEditorValues['stay']): TemplateCreateInputRaw['stay'] {
  const checkIn = parseFieldRef(draft.checkIn);
  if (!checkIn) return null;
  const end = parseFieldRef(draft.endField);
  return {
    checkIn,
    ...(end ? { [draft.end]: end } : {}),
    ...(draft.bookingUrl.trim() ? { bookingUrl: draft.bookingUrl.trim() } : {}),
    ...(draft.perNight ? { perNight: draft.perNight } : {}),
  };
}

/** The API payload of the editor's values, and the JSON boxes that did not parse. */
export function toTemplatePayload(values: TemplateEditorValues): {
  payload: TemplateCreateInputRaw;
  errors: Errors;
} {
  const errors: Errors = {};
  const parsed: Partial<Record<(typeof jsonBoxes)[number][1], unknown>> = {};
  for (const [box, key] of jsonBoxes) {
    const result = jsonTextSchema.safeParse(values[box]);
    if (result.success) parsed[key] = result.data;
    else errors[box] = result.error.issues[0]?.message ?? '';
  }
  const presets = values.responseWatchPresets;
  const responseWatchPresets: WatchPresetsInput = {
    notifyOn: presets.notifyOn,
    notifyOnResolved: presets.notifyOnResolved,
    debounceSeconds: requiredNumber(presets.debounceSeconds),
    groups: presets.groups.map((g) => ({
      id: g.id,
      label: g.label,
      ...(g.description.trim() ? { description: g.description.trim() } : {}),
    })),
    all: presets.all.map(toPreset),
    any: presets.any.map(toPreset),
  };
  const payload: TemplateCreateInputRaw = {
    name: values.name,
    description: values.description.trim() || null,
    resortCode: values.resortCode,
    templateGroupId: values.templateGroupId,
    targetUrl: values.targetUrl,
    method: values.method,
    pollingIntervalSeconds: requiredNumber(values.pollingIntervalSeconds),
    isActive: values.isActive,
    defaultHeaders: (parsed.defaultHeaders ?? {}) as Record<string, string>,
    defaultQuery: (parsed.defaultQuery ?? {}) as Record<string, Scalar>,
    defaultBody: (parsed.defaultBody ?? null) as TemplateCreateInputRaw['defaultBody'],
    editableFields: values.editableFields.map(toField),
    responseWatchPresets,
    stay: toStay(values.stay),
  };
  return { payload, errors };
}

/** Where a payload issue shows in the form: JSON maps in their text box, repeat links on their select. */
export function formPath(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  const box = jsonBoxes.find(([, key]) => key === head);
  if (box) return box[0];
  // The stay's end (check-out or nights) is one select in the form.
  if (head === 'stay' && (rest[0] === 'checkOut' || rest[0] === 'nights')) return 'stay.endField';
  if (head === 'editableFields' && rest[1] === 'options' && rest[2] === 'repeatCountField') {
    return `editableFields.${rest[0]}.repeatCountField`;
  }
  return [head, ...rest].join('.');
}

export type EditorParse = { ok: true; data: TemplateCreateInput } | { ok: false; errors: Errors };

/** Validates with the editor's shared schema (the server's rules in the editor's words). */
export function parseTemplateEditor(values: TemplateEditorValues): EditorParse {
  const { payload, errors } = toTemplatePayload(values);
  const result = templateEditorSchema.safeParse(payload);
  if (!result.success) {
    for (const issue of result.error.issues) errors[formPath(issue.path)] ??= issue.message;
  }
  if (Object.keys(errors).length > 0 || !result.success) return { ok: false, errors };
  return { ok: true, data: result.data };
}

export const validateTemplateEditor = (values: TemplateEditorValues): Errors => {
  const parsed = parseTemplateEditor(values);
  return parsed.ok ? {} : parsed.errors;
};
