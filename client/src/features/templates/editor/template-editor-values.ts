import {
  type EditableField,
  type FieldRef,
  isRepeatable,
  type Preset,
  type TemplateStay,
  templatePollingDefault,
} from '@resort/shared';
import {
  blankField,
  blankPreset,
  type FieldDraft,
  fieldRefKey,
  newUid,
  type OptionDraft,
  type PresetDraft,
  type StayDraft,
  type TemplateEditorValues,
  type TemplateSource,
} from './template-editor-model.ts';

/** Stored templates and generator samples as editor drafts (the way back: template-editor-payload.ts). */
export const scalarText = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

const jsonText = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v, null, 2));

const mapText = (v: Record<string, unknown> | undefined): string =>
  v && Object.keys(v).length > 0 ? JSON.stringify(v, null, 2) : '';

const valueType = (v: unknown): OptionDraft['valueType'] =>
  typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';

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

const refKey = (ref: FieldRef | undefined) => (ref ? fieldRefKey(ref) : '');

function toStayDraft(stay: TemplateStay | null | undefined): StayDraft {
  return {
    checkIn: refKey(stay?.checkIn),
    end: stay?.nights ? 'nights' : 'checkOut',
    endField: refKey(stay?.nights ?? stay?.checkOut),
    bookingUrl: stay?.bookingUrl ?? '',
    perNight: stay?.perNight ?? null,
  };
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
  // A preset whose group no longer exists has its group cleared.
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
    stay: toStayDraft(source.stay),
  };
}
