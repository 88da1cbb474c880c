import {
  type EditableField,
  type FieldType,
  generatedRuleGroup,
  type Operator,
  type Preset,
} from '@resort/shared';
import {
  blankOption,
  type FieldDraft,
  newUid,
  type PresetDraft,
  type PresetsDraft,
  type TemplateEditorValues,
  type TemplateSource,
  valuelessOperators,
} from './template-editor-model.ts';
import { toEditorValues, toPresetDraft } from './template-editor-values.ts';

/**
 * The editor's transitions, pure so the components stay thin: leaving SELECT clears
 * the options, entering it adds one blank option; a valueless operator clears the value; a group
 * that goes away leaves its presets without a group.
 */
export function changeFieldType(field: FieldDraft, next: FieldType): FieldDraft {
  if (next === field.fieldType) return field;
  if (next === 'SELECT') return { ...field, fieldType: next, options: [blankOption()], repeatable: false };
  return { ...field, fieldType: next, options: [] };
}

export function changeOperator(preset: PresetDraft, operator: Operator): PresetDraft {
  const value = valuelessOperators.includes(operator) ? '' : preset.condition.value;
  return { ...preset, condition: { ...preset.condition, operator, value } };
}

function mapPresets(presets: PresetsDraft, fn: (p: PresetDraft) => PresetDraft): PresetsDraft {
  return { ...presets, all: presets.all.map(fn), any: presets.any.map(fn) };
}

export function removeGroup(presets: PresetsDraft, index: number): PresetsDraft {
  const groups = presets.groups.filter((_, i) => i !== index);
  const remaining = new Set(groups.map((g) => g.id));
  return mapPresets({ ...presets, groups }, (p) =>
    p.group !== null && !remaining.has(p.group) ? { ...p, group: null } : p,
  );
}

/** Renaming a group's id carries its presets along, unless another group still has the old id. */
export function renameGroup(presets: PresetsDraft, index: number, id: string): PresetsDraft {
  const previous = presets.groups[index]?.id;
  const groups = presets.groups.map((g, i) => (i === index ? { ...g, id } : g));
  const stillThere = groups.some((g) => g.id === previous);
  return mapPresets({ ...presets, groups }, (p) =>
    previous && p.group === previous && !stillThere ? { ...p, group: id } : p,
  );
}

/** Generated rules replace earlier generated ones with the same id and join the generated group. */
export function addGeneratedRules(presets: PresetsDraft, rules: readonly Preset[]): PresetsDraft {
  const ids = new Set(rules.map((r) => r.id));
  const hasGroup = presets.groups.some((g) => g.id === generatedRuleGroup.id);
  return {
    ...presets,
    groups: hasGroup
      ? presets.groups
      : [...presets.groups, { uid: newUid(), ...generatedRuleGroup, description: '' }],
    all: [...presets.all.filter((p) => !ids.has(p.id)), ...rules.map(toPresetDraft)],
    any: presets.any.filter((p) => !ids.has(p.id)),
  };
}

export function appendFields(values: TemplateEditorValues, fields: readonly EditableField[]): FieldDraft[] {
  return [...values.editableFields, ...toEditorValues({ editableFields: fields }).editableFields];
}

/** A generator sample fills the whole form; the chosen group stays when the sample names none. */
export function applySample(values: TemplateEditorValues, sample: TemplateSource): TemplateEditorValues {
  const next = toEditorValues(sample);
  return { ...next, templateGroupId: sample.templateGroupId ?? values.templateGroupId };
}
