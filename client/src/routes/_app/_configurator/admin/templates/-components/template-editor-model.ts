import type { UseFormReturnType } from '@mantine/form';
import {
  type EditableField,
  editorOperators,
  type FieldTarget,
  type FieldType,
  type HttpMethod,
  isRepeatable,
  type NotifyOn,
  type Operator,
  type Preset,
  type PresetInput,
  templatePollingDefault,
  type WatchPresets,
} from '@resort/shared';

/**
 * The template editor's form state. It mirrors the API payload so that the shared schema's issue
 * paths land on the right inputs; the differences are text where people type (JSON boxes, values)
 * and a `uid` per list item for React keys.
 */
export interface OptionDraft {
  uid: string;
  value: string;
  label: string;
  /** The stored value's type, kept so a numeric option is not turned into text by editing. */
  valueType: 'string' | 'number' | 'boolean';
}

export interface FieldDraft {
  uid: string;
  target: FieldTarget;
  path: string;
  label: string;
  description: string;
  fieldType: FieldType;
  required: boolean;
  /** Text; a repeatable field's entries are comma-separated. */
  defaultValue: string;
  /** SELECT options; empty for other types. */
  options: OptionDraft[];
  repeatable: boolean;
  /** '' or `${target}:${path}` of the NUMBER field that sizes a repeatable field. */
  repeatCountField: string;
}

export interface InputDraft {
  type: PresetInput['type'];
  label: string;
  description: string;
  required: boolean;
  defaultValue: string;
}

export interface PresetDraft {
  uid: string;
  id: string;
  label: string;
  description: string;
  group: string | null;
  alertGroupId: string | null;
  condition: {
    path: string;
    label: string;
    description: string;
    operator: Operator;
    value: string;
    /** Not edited here; kept as stored. */
    ignoreChanges: Preset['condition']['ignoreChanges'];
    requiredPaths: Preset['condition']['requiredPaths'];
  };
  hasInput: boolean;
  input: InputDraft;
  defaultEnabled: boolean;
}

export interface GroupDraft {
  uid: string;
  id: string;
  label: string;
  description: string;
}

export type RuleList = 'all' | 'any';

export interface PresetsDraft {
  notifyOn: NotifyOn;
  notifyOnResolved: boolean;
  debounceSeconds: number | string;
  groups: GroupDraft[];
  all: PresetDraft[];
  any: PresetDraft[];
}

export interface TemplateEditorValues {
  name: string;
  description: string;
  resortCode: string;
  templateGroupId: string | null;
  targetUrl: string;
  method: HttpMethod;
  pollingIntervalSeconds: number | string;
  isActive: boolean;
  defaultHeadersText: string;
  defaultQueryText: string;
  defaultBodyText: string;
  editableFields: FieldDraft[];
  responseWatchPresets: PresetsDraft;
}

/** What the editor reads from a stored template or a generator sample. */
export interface TemplateSource {
  name?: string;
  description?: string | null;
  resortCode?: string;
  templateGroupId?: string | null;
  targetUrl?: string;
  method?: HttpMethod;
  pollingIntervalSeconds?: number;
  isActive?: boolean;
  defaultHeaders?: Record<string, string>;
  defaultQuery?: Record<string, string | number | boolean>;
  defaultBody?: unknown;
  editableFields?: readonly EditableField[] | readonly unknown[];
  responseWatchPresets?: Partial<WatchPresets> | null;
}

let counter = 0;
export const newUid = () => `d${++counter}`;

export const editorOperatorChoices = (current: Operator): readonly Operator[] =>
  (editorOperators as readonly Operator[]).includes(current)
    ? editorOperators
    : [...editorOperators, current];

/** Operators that compare with nothing: their value box is hidden and cleared. */
export const valuelessOperators: readonly Operator[] = ['exists', 'changed', 'not_changed'];

export const scalarText = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

const jsonText = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v, null, 2));

const mapText = (v: Record<string, unknown> | undefined): string =>
  v && Object.keys(v).length > 0 ? JSON.stringify(v, null, 2) : '';

const valueType = (v: unknown): OptionDraft['valueType'] =>
  typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';

export const blankOption = (): OptionDraft => ({ uid: newUid(), value: '', label: '', valueType: 'string' });

export function blankField(): FieldDraft {
  return {
    uid: newUid(),
    target: 'BODY',
    path: '',
    label: '',
    description: '',
    fieldType: 'STRING',
    required: false,
    defaultValue: '',
    options: [],
    repeatable: false,
    repeatCountField: '',
  };
}

export function blankPreset(): PresetDraft {
  return {
    uid: newUid(),
    id: '',
    label: '',
    description: '',
    group: null,
    alertGroupId: null,
    condition: {
      path: '',
      label: '',
      description: '',
      operator: 'lte',
      value: '',
      ignoreChanges: undefined,
      requiredPaths: undefined,
    },
    hasInput: false,
    input: { type: 'number', label: '', description: '', required: false, defaultValue: '' },
    defaultEnabled: false,
  };
}

export const blankGroup = (): GroupDraft => ({ uid: newUid(), id: '', label: '', description: '' });

export const fieldRefKey = (ref: { target: FieldTarget; path: string }) => `${ref.target}:${ref.path}`;

function toFieldDraft(field: EditableField): FieldDraft {
  const repeatable = isRepeatable(field);
  const options = Array.isArray(field.options) ? field.options : [];
  const dv = field.defaultValue;
  return {
    ...blankField(),
    target: field.target,
    path: field.path,
    label: field.label,
    description: field.description ?? '',
    fieldType: field.fieldType,
    required: field.required ?? false,
    defaultValue: Array.isArray(dv) ? dv.map(scalarText).join(', ') : scalarText(dv),
    options: options.map((o) => ({
      uid: newUid(),
      value: scalarText(o.value),
      label: o.label,
      valueType: valueType(o.value),
    })),
    repeatable,
    repeatCountField:
      repeatable && field.options.repeatCountField ? fieldRefKey(field.options.repeatCountField) : '',
  };
}

export function toPresetDraft(preset: Preset): PresetDraft {
  const blank = blankPreset();
  return {
    uid: newUid(),
    id: preset.id,
    label: preset.label,
    description: preset.description ?? '',
    group: preset.group ?? null,
    alertGroupId: preset.alertGroupId ?? null,
    condition: {
      path: preset.condition.path,
      label: preset.condition.label ?? '',
      description: preset.condition.description ?? '',
      operator: preset.condition.operator,
      value: scalarText(preset.condition.value),
      ignoreChanges: preset.condition.ignoreChanges,
      requiredPaths: preset.condition.requiredPaths,
    },
    hasInput: preset.input !== undefined,
    input: preset.input
      ? {
          type: preset.input.type,
          label: preset.input.label,
          description: preset.input.description ?? '',
          required: preset.input.required ?? false,
          defaultValue: scalarText(preset.input.defaultValue),
        }
      : blank.input,
    defaultEnabled: preset.defaultEnabled ?? false,
  };
}

/** Editable fields in display order (stored order breaks ties). */
function orderedFields(fields: readonly unknown[]): EditableField[] {
  return (fields as EditableField[])
    .map((field, index) => ({ field, index }))
    .sort((a, b) => (a.field.displayOrder ?? a.index) - (b.field.displayOrder ?? b.index))
    .map((x) => x.field);
}

export function toEditorValues(source: TemplateSource = {}): TemplateEditorValues {
  const presets = source.responseWatchPresets ?? {};
  const groups = (presets.groups ?? []).map((g) => ({
    uid: newUid(),
    id: g.id,
    label: g.label,
    description: g.description ?? '',
  }));
  const known = new Set(groups.map((g) => g.id));
  // A preset whose group no longer exists has its group cleared (SPEC.md §4).
  const drafts = (list: readonly Preset[] | undefined) =>
    (list ?? []).map(toPresetDraft).map((p) => (p.group && !known.has(p.group) ? { ...p, group: null } : p));
  return {
    name: source.name ?? '',
    description: source.description ?? '',
    resortCode: source.resortCode ?? '',
    templateGroupId: source.templateGroupId ?? null,
    targetUrl: source.targetUrl ?? '',
    method: source.method ?? 'POST',
    pollingIntervalSeconds: source.pollingIntervalSeconds ?? templatePollingDefault,
    isActive: source.isActive ?? true,
    defaultHeadersText: mapText(source.defaultHeaders),
    defaultQueryText: mapText(source.defaultQuery),
    defaultBodyText: jsonText(source.defaultBody),
    editableFields: orderedFields(source.editableFields ?? []).map(toFieldDraft),
    responseWatchPresets: {
      notifyOn: presets.notifyOn ?? 'everyMatch',
      notifyOnResolved: presets.notifyOnResolved ?? false,
      debounceSeconds: presets.debounceSeconds ?? 0,
      groups,
      all: drafts(presets.all),
      any: drafts(presets.any),
    },
  };
}

export type TemplateEditorForm = UseFormReturnType<TemplateEditorValues>;
