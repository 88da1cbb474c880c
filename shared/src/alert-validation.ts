import type { AlertPayload } from './alert.schema.ts';
import { alertMessages as m } from './alert.schema.ts';
import {
  type EditableField,
  editableFieldSchema,
  fieldMessages,
  isRepeatable,
} from './editable-field.schema.ts';
import { toNumber, valuesEqual } from './evaluator.ts';
import {
  readTemplateStay,
  type StayWindow,
  stayFieldKeys,
  stayWindowMessages,
  stayWindowProblem,
} from './stay-window.ts';
import { type Condition, type Preset, type WatchPresets, watchPresetsSchema } from './watch.schema.ts';

/**
 * The checks of docs/product.md, "Validation and messages" that need the chosen template: override fields, dates, party
 * composition and rule inputs. The server runs them before every write and the client form runs
 * them for its inline messages, so both say the same words.
 */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
}

export interface TemplateForValidation {
  editableFields?: unknown;
  /** The template's stay (which fields carry it), needed by an alert that watches a window. */
  stay?: unknown;
  responseWatchPresets?: unknown;
}

/** What the checks read from a payload; the client's form state fits it as well as a parsed payload. */
export interface PayloadForValidation {
  overrides?: Overrides | undefined;
  stayWindow?: StayWindow[] | null | undefined;
  watchConfig?: { all?: Condition[]; any?: Condition[] } | undefined;
}

export interface ValidationOptions {
  /** Today as YYYY-MM-DD; dates before it are in the past. Defaults to `earliestToday()`. */
  today?: string;
}

type Overrides = NonNullable<AlertPayload['overrides']>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * Today in the earliest time zone on Earth (UTC-12). The server does not know the planner's zone,
 * so a date is refused only once it is past everywhere; the client passes its local date instead.
 */
export function earliestToday(now: Date = new Date()): string {
  return new Date(now.getTime() - 12 * 3600_000).toISOString().slice(0, 10);
}

/** Today in the runtime's own time zone, for the client form. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

type PartyRole = 'adults' | 'children' | 'childAges';

const partyNames: Record<PartyRole, readonly string[]> = {
  adults: ['adults', 'adultcount', 'numadults', 'numberofadults'],
  children: ['children', 'childcount', 'numchildren', 'numberofchildren', 'kids'],
  childAges: ['childages', 'childrenages', 'kidsages', 'agesofchildren'],
};

const normalise = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Party composition lives in ordinary editable fields. A field plays a party role when the last
 * segment of its path or its label, lower-cased without punctuation, names it (adults, children,
 * childAges and a few synonyms such as adultCount or child_ages). Ranges: adults 1–10, children
 * 0–10, each child age 0–17 (docs/product.md, "Limits and constants").
 */
export function partyRoleOf(field: { path: string; label?: string }): PartyRole | null {
  const lastSegment =
    field.path
      .split(/[.[\]]/)
      .filter(Boolean)
      .pop() ?? '';
  const candidates = [normalise(lastSegment), normalise(field.label ?? '')];
  for (const role of ['adults', 'children', 'childAges'] as const) {
    if (candidates.some((c) => partyNames[role].includes(c))) return role;
  }
  return null;
}

const partyRules: Record<PartyRole, { min: number; max: number; message: string }> = {
  adults: { min: 1, max: 10, message: m.adultsRange },
  children: { min: 0, max: 10, message: m.childrenRange },
  childAges: { min: 0, max: 17, message: m.childAgeRange },
};

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function isValidDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const [y, mo, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isBooleanLike(v: unknown): boolean {
  return typeof v === 'boolean' || v === 'true' || v === 'false';
}

function selectValues(field: EditableField): unknown[] {
  return Array.isArray(field.options) ? field.options.map((o) => o.value) : [];
}

/** A template's stored editable fields, valid ones only, in display order. */
export function readEditableFields(raw: unknown): EditableField[] {
  if (!Array.isArray(raw)) return [];
  const fields: EditableField[] = [];
  for (const item of raw) {
    const parsed = editableFieldSchema.safeParse(item);
    if (parsed.success) fields.push(parsed.data);
  }
  return fields
    .map((field, index) => ({ field, index }))
    .sort((a, b) => (a.field.displayOrder ?? a.index) - (b.field.displayOrder ?? b.index))
    .map((x) => x.field);
}

const targetKey = (target: EditableField['target']) => target.toLowerCase() as keyof Overrides;

function overrideOf(overrides: Overrides | undefined, field: Pick<EditableField, 'target' | 'path'>) {
  const bucket = overrides?.[targetKey(field.target)];
  return bucket && Object.hasOwn(bucket, field.path) ? bucket[field.path] : undefined;
}

/**
 * A count field's value: its override, else its default. The builder sizes the linked list by the
 * count it finds in the request, which the form always fills from the field's default.
 */
function countOf(overrides: Overrides | undefined, field: EditableField): number | null {
  const value = overrideOf(overrides, field);
  return toNumber(value === undefined ? field.defaultValue : value);
}

/** The first problem with one non-blank entry of a field, or null. */
function entryProblem(field: EditableField, value: unknown, today: string): string | null {
  if (Array.isArray(value)) return m.singleValue;
  switch (field.fieldType) {
    case 'NUMBER':
      if (typeof value === 'boolean' || toNumber(value) === null) return fieldMessages.expectedNumeric;
      break;
    case 'BOOLEAN':
      if (!isBooleanLike(value)) return m.inputBoolean;
      break;
    case 'DATE':
      if (!isValidDate(value)) return m.dateInvalid;
      if (value.slice(0, 10) < today) return isRepeatable(field) ? m.datesInPast : m.dateInPast;
      break;
    case 'SELECT':
      if (!selectValues(field).some((o) => valuesEqual(o, value))) return m.selectOption;
      break;
  }
  const role = partyRoleOf(field);
  if (role) {
    const rule = partyRules[role];
    const n = toNumber(value);
    if (typeof value === 'boolean' || n === null || !Number.isInteger(n) || n < rule.min || n > rule.max) {
      return rule.message;
    }
  }
  return null;
}

function checkField(
  field: EditableField,
  fields: EditableField[],
  overrides: Overrides | undefined,
  today: string,
): string | null {
  // Only what the alert overrides is written into its request, so a required field needs an override.
  const value = overrideOf(overrides, field);
  if (!isRepeatable(field)) {
    if (isBlank(value)) return field.required ? m.fieldRequired : null;
    return entryProblem(field, value, today);
  }
  const entries = Array.isArray(value) ? value : isBlank(value) ? [] : [value];
  for (const entry of entries) {
    const problem = isBlank(entry) ? null : entryProblem(field, entry, today);
    if (problem) return problem;
  }
  if (!field.required) return null;
  const linkRef = field.options.repeatCountField;
  const countField = linkRef && fields.find((f) => f.target === linkRef.target && f.path === linkRef.path);
  const count = countField ? countOf(overrides, countField) : null;
  if (countField && count !== null && Number.isInteger(count) && count >= 0) {
    const filled = entries.slice(0, count).filter((e) => !isBlank(e)).length;
    if (filled >= count) return null;
    return count === 1 ? m.linkedEntry(countField.label) : m.linkedEntries(count, countField.label);
  }
  return entries.some((e) => !isBlank(e)) ? null : m.atLeastOneValue;
}

function inputProblem(preset: Preset, value: Condition['value']): string | null {
  const input = preset.input;
  if (!input) return null;
  if (isBlank(value) || (Array.isArray(value) && value.length === 0)) {
    return input.required ? m.inputRequired(preset.label, input.label) : null;
  }
  if (input.type === 'number' && (typeof value === 'boolean' || toNumber(value) === null)) {
    return m.inputNumber(input.label);
  }
  if (input.type === 'boolean' && !isBooleanLike(value)) return m.inputBoolean;
  return null;
}

function checkRules(
  watchConfig: PayloadForValidation['watchConfig'],
  presets: WatchPresets,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const byId = new Map([...presets.all, ...presets.any].map((p) => [p.id, p]));
  for (const group of ['all', 'any'] as const) {
    (watchConfig?.[group] ?? []).forEach((condition, index) => {
      if (condition.presetId === undefined) return;
      const preset = byId.get(condition.presetId);
      if (!preset) {
        issues.push({ path: ['watchConfig', group, index, 'presetId'], message: m.unknownRule });
        return;
      }
      const problem = inputProblem(preset, condition.value);
      if (problem) issues.push({ path: ['watchConfig', group, index, 'value'], message: problem });
    });
  }
  return issues;
}

export function validateAgainstTemplate(
  payload: PayloadForValidation,
  template: TemplateForValidation,
  options: ValidationOptions = {},
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const presets = watchPresetsSchema.safeParse(template.responseWatchPresets);
  if (!presets.success) issues.push({ path: ['watchConfig'], message: m.misconfigured });

  const today = options.today ?? earliestToday();
  const fields = readEditableFields(template.editableFields);
  // A window sets the stay fields itself, stay by stay.
  let stayFields = new Set<string>();
  if (payload.stayWindow) {
    const stay = readTemplateStay(template.stay);
    const problem = stay
      ? stayWindowProblem(payload.stayWindow, today)
      : stayWindowMessages.templateHasNoStay;
    if (problem) issues.push({ path: ['stayWindow'], message: problem });
    stayFields = stayFieldKeys(stay);
  }
  for (const field of fields) {
    if (stayFields.has(`${field.target}:${field.path}`)) continue;
    const problem = checkField(field, fields, payload.overrides, today);
    if (problem) issues.push({ path: ['overrides', targetKey(field.target), field.path], message: problem });
  }
  for (const [key, bucket] of Object.entries(payload.overrides ?? {})) {
    for (const path of Object.keys(bucket ?? {})) {
      if (!fields.some((f) => targetKey(f.target) === key && f.path === path)) {
        issues.push({ path: ['overrides', key, path], message: m.notOverridable });
      }
    }
  }
  if (presets.success) issues.push(...checkRules(payload.watchConfig, presets.data));
  return issues;
}
