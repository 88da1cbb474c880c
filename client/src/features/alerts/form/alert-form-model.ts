import type { UseFormReturnType } from '@mantine/form';
import {
  type Condition,
  clampPollingInterval,
  defaultDateValue,
  type EditableField,
  isRepeatable,
  localToday,
  MIN_POLLING_INTERVAL_SECONDS,
  type NotifyOn,
  POLLING_INTERVAL_STEP_SECONDS,
  type Preset,
  readEditableFields,
  readTemplateStay,
  type StayWindow,
  type TemplateStay,
  type WatchPresets,
  type Weekday,
  watchPresetsSchema,
} from '@resort/shared';
import type { AlertRecord, TemplateRecord } from '@/api/contracts.ts';

/**
 * The alert form's state. Override values and rule states are lists aligned with the chosen
 * template's fields (display order) and presets (`all` then `any`), since field paths contain dots
 * that a form path cannot carry.
 */
export type EntryValue = string | number | boolean | null;
export type FieldValue = EntryValue | EntryValue[];

export interface RuleState {
  presetId: string;
  list: 'all' | 'any';
  enabled: boolean;
  /** The user's input for presets that ask for one. */
  value: string | number | boolean | null;
}

/** What the form keeps from an edited alert without showing it. */
export interface Preserved {
  notifyOnResolved: boolean;
  debounceSeconds: number;
  /** Conditions not made from a preset (written through the API): sent back unchanged. */
  extra: { all: Condition[]; any: Condition[] };
  /** Windows after the first (the form edits one; more come through the API): sent back unchanged. */
  extraWindows: StayWindow[];
}

/** Flexible dates: one window of stays, as typed (numbers may still be text). */
export interface StayWindowValues {
  start: string;
  end: string;
  minNights: number | string;
  maxNights: number | string;
  arrivalWeekdays: Weekday[];
}

export interface AlertFormValues {
  templateGroupId: string | null;
  templateId: string | null;
  fieldValues: FieldValue[];
  /** Flexible dates instead of the template's stay fields (null: fixed dates). */
  stayWindow: StayWindowValues | null;
  rules: RuleState[];
  notifyOn: NotifyOn;
  pollingIntervalSeconds: number | string;
  notificationServiceIds: string[];
  /** Every channel uses its high priority for this alert's messages. */
  urgent: boolean;
  tags: string[];
  title: string;
  partyName: string;
  customHeadersText: string;
  customQueryText: string;
  customBodyText: string;
  preserved: Preserved;
}

export type AlertForm = UseFormReturnType<AlertFormValues>;

/** The chosen template as the form reads it: valid fields in display order and parsed presets. */
export interface TemplateModel {
  template: TemplateRecord;
  fields: EditableField[];
  /** null when the stored presets do not parse: the template's rules are misconfigured. */
  presets: WatchPresets | null;
  /** Presets in the order of `AlertFormValues.rules`. */
  presetList: { preset: Preset; list: 'all' | 'any' }[];
  /** Which fields carry the stay: with one, the alert may watch flexible dates. */
  stay: TemplateStay | null;
}

export function templateModel(template: TemplateRecord): TemplateModel {
  const parsed = watchPresetsSchema.safeParse(template.responseWatchPresets);
  const presets = parsed.success ? parsed.data : null;
  return {
    template,
    fields: readEditableFields(template.editableFields),
    stay: readTemplateStay(template.stay),
    presets,
    presetList: presets
      ? [
          ...presets.all.map((preset) => ({ preset, list: 'all' as const })),
          ...presets.any.map((preset) => ({ preset, list: 'any' as const })),
        ]
      : [],
  };
}

const step = POLLING_INTERVAL_STEP_SECONDS;
const clampInterval = (n: number) =>
  clampPollingInterval(Math.round(n / step) * step || MIN_POLLING_INTERVAL_SECONDS);

/** A date default in the past is no use for a future-only field: today plus 3 days instead. */
function startingDate(value: unknown, now: Date): EntryValue {
  return typeof value === 'string' && value >= localToday(now) ? value : defaultDateValue(now);
}

export function initialFieldValue(field: EditableField, now: Date): FieldValue {
  const dv = field.defaultValue;
  if (isRepeatable(field)) {
    const list = Array.isArray(dv) ? [...dv] : dv === undefined || dv === null ? [] : [dv];
    return field.fieldType === 'DATE' ? list.map((v) => startingDate(v, now)) : list;
  }
  if (field.fieldType === 'DATE') return startingDate(Array.isArray(dv) ? dv[0] : dv, now);
  return Array.isArray(dv) ? (dv[0] ?? null) : (dv ?? null);
}

function initialRules(model: TemplateModel): RuleState[] {
  return model.presetList.map(({ preset, list }) => ({
    presetId: preset.id,
    list,
    enabled: preset.defaultEnabled ?? false,
    value: preset.input?.defaultValue ?? null,
  }));
}

const emptyPreserved = (presets: WatchPresets | null): Preserved => ({
  notifyOnResolved: presets?.notifyOnResolved ?? false,
  debounceSeconds: presets?.debounceSeconds ?? 0,
  extra: { all: [], any: [] },
  extraWindows: [],
});

export function emptyAlertValues(): AlertFormValues {
  return {
    templateGroupId: null,
    templateId: null,
    fieldValues: [],
    stayWindow: null,
    rules: [],
    notifyOn: 'everyMatch',
    pollingIntervalSeconds: 60,
    notificationServiceIds: [],
    urgent: false,
    tags: [],
    title: '',
    partyName: '',
    customHeadersText: '',
    customQueryText: '',
    customBodyText: '',
    preserved: emptyPreserved(null),
  };
}

/** Picking a template loads its defaults and rules; what the user typed about the trip stays. */
export function withTemplate(values: AlertFormValues, model: TemplateModel, now: Date): AlertFormValues {
  return {
    ...values,
    templateId: model.template.id,
    templateGroupId: model.template.templateGroupId ?? values.templateGroupId,
    fieldValues: model.fields.map((f) => initialFieldValue(f, now)),
    stayWindow: null,
    rules: initialRules(model),
    notifyOn: model.presets?.notifyOn ?? 'everyMatch',
    pollingIntervalSeconds: clampInterval(model.template.pollingIntervalSeconds),
    preserved: emptyPreserved(model.presets),
  };
}

/** Choosing a group clears a chosen template that is not in that group. */
export function withGroup(
  values: AlertFormValues,
  groupId: string | null,
  templates: readonly TemplateRecord[],
): AlertFormValues {
  const chosen = templates.find((t) => t.id === values.templateId);
  const keep = !groupId || chosen?.templateGroupId === groupId;
  return keep
    ? { ...values, templateGroupId: groupId }
    : { ...values, templateGroupId: groupId, templateId: null, fieldValues: [], rules: [] };
}

const text = (v: unknown) => (v === undefined || v === null ? '' : JSON.stringify(v, null, 2));
const mapText = (v: Record<string, unknown> | undefined) => (v && Object.keys(v).length > 0 ? text(v) : '');

/** Edit mode: the form filled from the existing alert, on its template. */
export function fromAlert(alert: AlertRecord, model: TemplateModel, now: Date): AlertFormValues {
  const base = withTemplate(emptyAlertValues(), model, now);
  const overrides = alert.overrides as Record<string, Record<string, FieldValue> | undefined>;
  const watch = alert.watchConfig;
  const byPreset = new Map<string, Condition>();
  for (const c of [...watch.all, ...watch.any]) if (c.presetId) byPreset.set(c.presetId, c);
  const own = (c: Condition) => c.presetId === undefined;
  return {
    ...base,
    fieldValues: model.fields.map((field, i) => {
      const bucket = overrides[field.target.toLowerCase()];
      return bucket && Object.hasOwn(bucket, field.path)
        ? (bucket[field.path] ?? null)
        : (base.fieldValues[i] ?? null);
    }),
    stayWindow: alert.stayWindow?.[0]
      ? { ...alert.stayWindow[0], arrivalWeekdays: alert.stayWindow[0].arrivalWeekdays ?? [] }
      : null,
    rules: base.rules.map((rule) => {
      const condition = byPreset.get(rule.presetId);
      if (!condition) return { ...rule, enabled: false };
      const value = Array.isArray(condition.value) ? null : (condition.value ?? null);
      return { ...rule, enabled: true, value: value ?? rule.value };
    }),
    notifyOn: watch.notifyOn,
    pollingIntervalSeconds: alert.pollingIntervalSeconds,
    notificationServiceIds: alert.notificationServices.map((s) => s.notificationServiceId),
    urgent: alert.urgent,
    tags: alert.tags,
    title: alert.title ?? '',
    partyName: alert.partyName ?? '',
    customHeadersText: mapText(alert.customHeaders),
    customQueryText: mapText(alert.customQuery),
    customBodyText: text(alert.customBody),
    preserved: {
      notifyOnResolved: watch.notifyOnResolved,
      debounceSeconds: watch.debounceSeconds,
      extra: { all: watch.all.filter(own), any: watch.any.filter(own) },
      extraWindows: alert.stayWindow?.slice(1) ?? [],
    },
  };
}

/** A window to start from: a month from a week ahead, 4–5 nights, any arrival day. */
export function startingWindow(now: Date): StayWindowValues {
  const day = (n: number) => localToday(new Date(now.getTime() + n * 86_400_000));
  return { start: day(7), end: day(37), minNights: 4, maxNights: 5, arrivalWeekdays: [] };
}
