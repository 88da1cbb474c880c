import { z } from 'zod';
import { type EditableField, type FieldType, fieldRefSchema } from './editable-field.schema.ts';
import { formatObjectPath, isPlainObject, type ObjectPathSegment } from './json-path.ts';
import { generatorMessages, humanisePath } from './rule-generation.ts';
import type { TemplateCreateInputRaw } from './template.schema.ts';

/**
 * Template generator samples (GET /api/templates/generators/{id}) and the editor helpers that turn
 * a sample or the current request configuration into template fields, with the generators' messages.
 */

/** Why a generator cannot use a source URL (answered as 400), or does not exist (404). */
export const generatorSourceMessages = {
  notFound: 'Template generator not found.',
  invalidUrl: 'Source URL must be a valid http or https URL.',
  credentials: 'Source URL must not contain a user name or password.',
  invalidDates: 'Source URL dates must be real dates written as YYYY-MM-DD.',
  datesOrder: 'Source URL check-out date must be after the check-in date.',
  noDates:
    'Source URL has no check-in and check-out dates the generator can use (for example checkIn and checkOut parameters).',
  noResort: 'Source URL does not name a resort (for example a resort parameter or a /resorts/{name} path).',
  party:
    'Source URL party is not valid: 1 to 10 adults, 0 to 10 children and one age from 0 to 17 for each child.',
} as const;

/** Alert dates default to today plus this many days (docs/product.md, "Limits and constants"). */
export const defaultDateOffsetDays = 3;

/** What a room-availability generator read from its source URL (or assumed without one). */
export const roomLookupSchema = z.object({
  /** 'booking-page' (a guest-facing page), 'api' (the availability endpoint itself), 'example' (no URL). */
  source: z.enum(['booking-page', 'api', 'example']),
  sourceUrl: z.string().nullable(),
  resortCode: z.string().min(1),
  roomType: z.string().nullable(),
  checkIn: z.string(),
  checkOut: z.string(),
  nights: z.number().int(),
  adults: z.number().int(),
  children: z.number().int(),
  childAges: z.array(z.number().int()),
  /** Where each lookup detail goes in the template's request, e.g. checkIn → BODY stay.checkIn. */
  placement: z.record(z.string(), fieldRefSchema),
});
export type RoomLookup = z.infer<typeof roomLookupSchema>;

/** A generator in the registry, as GET /api/templates/generators lists it. */
export interface TemplateGeneratorInfo {
  id: string;
  label: string;
  description: string;
}

export const generatorSampleInput = z.object({
  id: z.string().trim().min(1, generatorSourceMessages.notFound),
  sourceUrl: z.string().trim().max(4096, generatorSourceMessages.invalidUrl).optional(),
});
export type GeneratorSampleInput = z.infer<typeof generatorSampleInput>;

export interface TemplateSample {
  generatorId: string;
  label: string;
  template: TemplateCreateInputRaw;
  roomLookup: RoomLookup;
}

export type SampleResult =
  | { ok: true; template: TemplateCreateInputRaw; roomLookup: RoomLookup }
  | { ok: false; message: string };

/** Checks a generator sample before the editor applies it: an object, room lookup details, rules. */
export function templateDraftFromSample(sample: unknown): SampleResult {
  if (sample === undefined || sample === null)
    return { ok: false, message: generatorMessages.selectTemplate };
  if (!isPlainObject(sample) || !isPlainObject(sample.template)) {
    return { ok: false, message: generatorMessages.sampleNotObject };
  }
  const lookup = roomLookupSchema.safeParse(sample.roomLookup);
  if (!lookup.success) return { ok: false, message: generatorMessages.sampleMissingRoomLookup };
  const template = sample.template as TemplateCreateInputRaw;
  const presets = template.responseWatchPresets;
  const count = (presets?.all?.length ?? 0) + (presets?.any?.length ?? 0);
  if (count === 0) return { ok: false, message: generatorMessages.noAlertsFromSample };
  return { ok: true, template, roomLookup: lookup.data };
}

/** Form helper: typed values are NUMBER, BOOLEAN or DATE (YYYY-MM-DD), else STRING. */
export function classifyValue(value: unknown): FieldType {
  if (typeof value === 'boolean') return 'BOOLEAN';
  if (typeof value === 'number') return 'NUMBER';
  if (typeof value !== 'string') return 'STRING';
  const text = value.trim();
  if (text === 'true' || text === 'false') return 'BOOLEAN';
  if (text !== '' && Number.isFinite(Number(text))) return 'NUMBER';
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'DATE';
  return 'STRING';
}

/** Today plus `defaultDateOffsetDays`, as YYYY-MM-DD in the local calendar of `now`'s machine. */
export function defaultDateValue(now: Date, offsetDays = defaultDateOffsetDays): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offsetDays);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';

// Nested configuration deeper than this is not offered as override fields.
const maxFieldDepth = 8;

export type FieldDerivation = { ok: true; fields: EditableField[] } | { ok: false; message: string };

/**
 * Override fields from the current request configuration: one per scalar default query value and
 * per scalar (or list of scalars) in the default body, skipping targets/paths already defined.
 */
export function deriveOverrideFields(config: {
  defaultQuery?: Record<string, unknown> | null;
  defaultBody?: unknown;
  editableFields?: readonly Pick<EditableField, 'target' | 'path'>[];
}): FieldDerivation {
  const taken = new Set((config.editableFields ?? []).map((f) => `${f.target}:${f.path}`));
  const fields: EditableField[] = [];
  const add = (target: EditableField['target'], path: string, value: Scalar | Scalar[]) => {
    if (taken.has(`${target}:${path}`)) return;
    taken.add(`${target}:${path}`);
    const sample = Array.isArray(value) ? value[0] : value;
    const field: EditableField = {
      target,
      path,
      label: humanisePath(path),
      fieldType: sample === undefined ? 'STRING' : classifyValue(sample),
      defaultValue: value,
      displayOrder: (config.editableFields?.length ?? 0) + fields.length,
    };
    if (Array.isArray(value)) field.options = { repeatable: true };
    fields.push(field);
  };

  for (const [key, value] of Object.entries(config.defaultQuery ?? {})) {
    if (isScalar(value)) add('QUERY', key, value);
  }
  const walk = (value: unknown, segments: ObjectPathSegment[]) => {
    if (segments.length > maxFieldDepth) return;
    if (isScalar(value) && segments.length > 0) add('BODY', formatObjectPath(segments), value);
    else if (Array.isArray(value) && segments.length > 0 && value.every(isScalar)) {
      add('BODY', formatObjectPath(segments), value);
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) walk(item, [...segments, key]);
    }
  };
  walk(config.defaultBody, []);

  return fields.length > 0
    ? { ok: true, fields }
    : { ok: false, message: generatorMessages.noOverrideFields };
}
