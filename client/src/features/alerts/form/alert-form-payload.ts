import {
  type AlertPayload,
  type AlertPayloadInput,
  alertPayloadSchema,
  alertTestInput,
  type Condition,
  type EditableField,
  isRepeatable,
  localToday,
  alertMessages as m,
  type Overrides,
  type PresetInput,
  type StayWindow,
  stayFieldKeys,
  validateAgainstTemplate,
} from '@resort/shared';
import type {
  AlertFormValues,
  EntryValue,
  FieldValue,
  StayWindowValues,
  TemplateModel,
} from './alert-form-model.ts';

type Errors = Record<string, string>;

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A JSON box: blank is nothing; anything else must parse. */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** How many entries a repeatable field shows: its count field's value, when it has one. */
export function linkedCount(field: EditableField, fields: readonly EditableField[], values: FieldValue[]) {
  if (!isRepeatable(field) || !field.options.repeatCountField) return null;
  const ref = field.options.repeatCountField;
  const index = fields.findIndex((f) => f.target === ref.target && f.path === ref.path);
  if (index < 0) return null;
  const raw = values[index];
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? Math.min(n, 100) : null;
}

/**
 * Override values as the API takes them. A blank value is left out, so the template's default
 * applies, except on a required field, where null makes the shared check say it is missing.
 */
export function toOverrides(model: TemplateModel, values: FieldValue[], flexible = false): Overrides {
  const overrides: Record<string, Record<string, FieldValue>> = {};
  // With flexible dates the window sets the stay fields, stay by stay.
  const skipped = flexible ? stayFieldKeys(model.stay) : new Set<string>();
  model.fields.forEach((field, i) => {
    if (skipped.has(`${field.target}:${field.path}`)) return;
    let value = values[i] ?? null;
    if (isRepeatable(field)) {
      const list = (Array.isArray(value) ? value : isBlank(value) ? [] : [value]).map((v) =>
        isBlank(v) ? null : v,
      );
      const count = linkedCount(field, model.fields, values);
      value = count === null ? list : Array.from({ length: count }, (_, k) => list[k] ?? null);
      if (value.every(isBlank) && !field.required) return;
    } else if (isBlank(value)) {
      if (!field.required) return;
      value = null;
    }
    const bucket = field.target.toLowerCase();
    overrides[bucket] = { ...overrides[bucket], [field.path]: value };
  });
  return overrides as Overrides;
}

function typedInput(input: PresetInput, value: EntryValue): Condition['value'] {
  if (isBlank(value)) return undefined;
  if (input.type === 'number' && typeof value === 'string' && Number.isFinite(Number(value.trim()))) {
    return Number(value.trim());
  }
  if (input.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (input.type === 'string') return String(value);
  return value;
}

/** Enabled presets become conditions (first in each list), then the alert's own conditions. */
export function toWatchConfig(model: TemplateModel, values: AlertFormValues) {
  const lists: { all: Condition[]; any: Condition[] } = { all: [], any: [] };
  /** For each list, the rule index behind each condition, to put input problems on the right rule. */
  const ruleAt: { all: number[]; any: number[] } = { all: [], any: [] };
  values.rules.forEach((rule, i) => {
    const entry = model.presetList[i];
    if (!rule.enabled || !entry) return;
    const { preset, list } = entry;
    lists[list].push({
      ...preset.condition,
      presetId: preset.id,
      value: preset.input ? typedInput(preset.input, rule.value) : preset.condition.value,
    });
    ruleAt[list].push(i);
  });
  const watchConfig = {
    all: [...lists.all, ...values.preserved.extra.all],
    any: [...lists.any, ...values.preserved.extra.any],
    notifyOn: values.notifyOn,
    notifyOnResolved: values.preserved.notifyOnResolved,
    debounceSeconds: values.preserved.debounceSeconds,
  };
  return { watchConfig, ruleAt };
}

/** The window as the API takes it: numbers typed, no arrival days meaning any day. */
export function toStayWindow(v: StayWindowValues): StayWindow {
  const nights = (x: number | string) =>
    typeof x === 'number' ? x : x.trim() === '' ? Number.NaN : Number(x);
  return {
    start: v.start.trim(),
    end: v.end.trim(),
    minNights: nights(v.minNights),
    maxNights: nights(v.maxNights),
    ...(v.arrivalWeekdays.length > 0 && v.arrivalWeekdays.length < 7
      ? { arrivalWeekdays: v.arrivalWeekdays }
      : {}),
  };
}

/** The windows the alert watches: the form's one, then any it keeps from the API. */
export function stayWindowsOf(values: AlertFormValues): StayWindow[] | null {
  if (!values.stayWindow) return null;
  return [toStayWindow(values.stayWindow), ...values.preserved.extraWindows];
}

const boxes = [
  ['customHeadersText', 'customHeaders'],
  ['customQueryText', 'customQuery'],
  ['customBodyText', 'customBody'],
] as const;

const formKey: Record<string, string> = {
  templateId: 'templateId',
  title: 'title',
  partyName: 'partyName',
  tags: 'tags',
  pollingIntervalSeconds: 'pollingIntervalSeconds',
  notificationServiceIds: 'notificationServiceIds',
  urgent: 'urgent',
  watchConfig: 'rules',
  customHeaders: 'customHeadersText',
  customQuery: 'customQueryText',
  customBody: 'customBodyText',
  stayWindow: 'stayWindow',
};

export type AlertParse = { ok: true; payload: AlertPayload } | { ok: false; errors: Errors };

/**
 * The payload and its checks: the server's schema (alertPayloadSchema) and the server's
 * template checks (validateAgainstTemplate, with the planner's own today), so both say the same.
 */
export function parseAlertForm(
  values: AlertFormValues,
  model: TemplateModel | null,
  opts: { now?: Date; forTest?: boolean } = {},
): AlertParse {
  const errors: Errors = {};
  const parsed: Record<string, unknown> = {};
  for (const [box, key] of boxes) {
    const result = parseJson(values[box]);
    if (result.ok) parsed[key] = result.value;
    else errors[box] = m.invalidJson;
  }
  const flexible = values.stayWindow !== null && model?.stay != null;
  const { watchConfig, ruleAt } = model
    ? toWatchConfig(model, values)
    : { watchConfig: undefined, ruleAt: null };
  const raw: AlertPayloadInput = {
    templateId: values.templateId ?? '',
    title: values.title.trim() || undefined,
    partyName: values.partyName.trim() || undefined,
    tags: values.tags,
    customHeaders: parsed.customHeaders as AlertPayloadInput['customHeaders'],
    customQuery: parsed.customQuery as AlertPayloadInput['customQuery'],
    customBody: parsed.customBody as AlertPayloadInput['customBody'],
    overrides: model ? toOverrides(model, values.fieldValues, flexible) : {},
    stayWindow: flexible ? stayWindowsOf(values) : null,
    watchConfig,
    // Blank stays text, so the schema answers with its not-a-number message.
    pollingIntervalSeconds: values.pollingIntervalSeconds as number,
    notificationServiceIds: values.notificationServiceIds,
    urgent: values.urgent,
  };
  // The test runs without rules (availability is then the status code); saving needs one.
  const schema = opts.forTest ? alertTestInput : alertPayloadSchema;
  const result = schema.safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = formKey[String(issue.path[0])] ?? String(issue.path[0] ?? 'form');
      errors[key] ??= issue.message;
    }
  }
  // Object refinements (the rule requirement) only run once every field parses: ask separately so
  // the form shows all its problems at once.
  if (!opts.forTest && watchConfig && errors.rules === undefined) {
    const rules = alertPayloadSchema.safeParse({ templateId: values.templateId || '-', watchConfig });
    const issue = rules.success ? undefined : rules.error.issues.find((i) => i.path[0] === 'watchConfig');
    if (issue) errors.rules = issue.message;
  }
  if (model) {
    const today = localToday(opts.now ?? new Date());
    for (const issue of validateAgainstTemplate(raw, model.template, { today })) {
      const [head, group, at] = issue.path;
      if (head === 'overrides') {
        const index = model.fields.findIndex((f) => f.target.toLowerCase() === group && f.path === at);
        errors[index >= 0 ? `fieldValues.${index}` : 'fieldValues'] ??= issue.message;
      } else if (head === 'stayWindow') {
        errors.stayWindow ??= issue.message;
      } else if (head === 'watchConfig' && (group === 'all' || group === 'any') && typeof at === 'number') {
        const rule = ruleAt?.[group][at];
        errors[rule === undefined ? 'rules' : `rules.${rule}.value`] ??= issue.message;
      } else {
        errors.rules ??= issue.message;
      }
    }
  }
  if (Object.keys(errors).length > 0 || !result.success) return { ok: false, errors };
  return { ok: true, payload: result.data };
}
