import type { UseFormReturnType } from '@mantine/form';
import {
  type EditableField,
  editorOperators,
  type FieldTarget,
  type FieldType,
  type HttpMethod,
  type NotifyOn,
  type Operator,
  type PerNight,
  type Preset,
  type PresetInput,
  type TemplateStay,
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

/** The stay: which fields carry it, as `${target}:${path}` ('' for none). */
export interface StayDraft {
  checkIn: string;
  end: 'checkOut' | 'nights';
  endField: string;
  bookingUrl: string;
  /** Not edited here; kept as stored. */
  perNight: PerNight | null;
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
  stay: StayDraft;
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
  stay?: TemplateStay | null;
}

let counter = 0;
export const newUid = () => `d${++counter}`;

export const editorOperatorChoices = (current: Operator): readonly Operator[] =>
  (editorOperators as readonly Operator[]).includes(current)
    ? editorOperators
    : [...editorOperators, current];

/** Operators that compare with nothing: their value box is hidden and cleared. */
export const valuelessOperators: readonly Operator[] = ['exists', 'changed', 'not_changed'];

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

export type TemplateEditorForm = UseFormReturnType<TemplateEditorValues>;
