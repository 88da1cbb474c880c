import { z } from 'zod';
import { type EditableField, editableFieldSchema, isRepeatable } from './editable-field.schema.ts';
import { parseObjectPath } from './json-path.ts';
import { jsonValueSchema } from './json-value.schema.ts';
import { messages } from './messages.ts';
import {
  MAX_POLLING_INTERVAL_SECONDS,
  MIN_POLLING_INTERVAL_SECONDS,
  pollingIntervalRangeMessage,
} from './polling.ts';
import { stayWindowMessages, type TemplateStay, templateStaySchema } from './stay-window.ts';
import { type WatchPresets, watchConfigSchema, watchPresetsSchema } from './watch.schema.ts';

/** Request templates and template groups (docs/product.md, "Alerts, templates and other entities"). */
export const templateMessages = {
  nameRequired: 'Name is required',
  /** The editor form's wording of the same rule. */
  editorNameRequired: 'Template name is required',
  nameTooLong: 'Name must be at most 200 characters.',
  resortCodeRequired: 'Resort code is required',
  targetUrlInvalid: 'Target URL must be a valid URL',
  /** The editor form's wording of the same rule. */
  editorTargetUrlInvalid: 'Provide a valid URL',
  methodInvalid: 'Method must be one of GET, POST, PUT, PATCH or DELETE.',
  pollingInterval: pollingIntervalRangeMessage,
  templateGroupIdEmpty: 'Template group id cannot be empty.',
  templateGroupNotFound: 'Template group not found.',
  invalidJson: messages.common.invalidJson,
  headerNameRequired: 'Header name is required',
  headerValueText: 'Header values must be text.',
  queryKeyRequired: 'Query parameter name is required',
  bodyPathInvalid: 'Path must use dot or bracket notation, e.g. party.adults or rooms[0].price.',
  duplicateField: 'Each override field needs a unique target and path.',
  repeatCountField: 'The repeat count field must be a NUMBER override field of this template.',
  duplicateRuleId: 'Rule ids must be unique.',
  notFound: 'Template not found.',
  inUse: (count: number) =>
    `This template is used by ${count} alert${count === 1 ? '' : 's'}. Remove those alerts or move them to another template before deleting it.`,
  saveBeforeTest: 'Save the template before running a live test.',
  upstreamStatus: (status: number) => `The upstream answered with HTTP status ${status}.`,
  // Client fallbacks.
  loadFailed: 'Unable to load template.',
  loadListFailed: 'Unable to load templates.',
  loadListFailedRefresh: 'Unable to load templates. Try refreshing.',
  saveFailed: 'Unable to save template. Please try again.',
  deleteFailed: 'Failed to delete template.',
  testFailed: 'Unable to test the template request.',
  generatorLoadFailed: 'Unable to load the template generator sample.',
} as const;

export const templateGroupMessages = {
  nameRequired: 'Group name is required',
  nameEmpty: 'Template group name cannot be empty.',
  nameTooLong: 'Group name must be at most 120 characters.',
  displayOrder: 'Display order must be a whole number of 0 or more.',
  updateNeedsField: 'At least one field is required to update the group',
  notFound: 'Template group not found.',
  nameTaken: (name: string) => `A template group named "${name}" already exists.`,
  loadFailed: 'Unable to load template groups.',
  createFailed: 'Unable to create template group.',
} as const;

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export const templatePollingDefault = 60;

const queryValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/** A JSON text box: blank is "nothing", anything else must parse ('Invalid JSON provided.'). */
export const jsonTextSchema = z.string().transform((text, ctx): unknown => {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: messages.common.invalidJson });
    return z.NEVER;
  }
});

interface FieldWording {
  name: string;
  targetUrl: string;
}

function templateShape(wording: FieldWording) {
  return {
    name: z
      .string({ error: wording.name })
      .trim()
      .min(1, wording.name)
      .max(200, templateMessages.nameTooLong),
    description: z.string().trim().max(2000).nullable().optional(),
    resortCode: z
      .string({ error: templateMessages.resortCodeRequired })
      .trim()
      .min(1, templateMessages.resortCodeRequired)
      .max(100),
    templateGroupId: z.string().trim().min(1, templateMessages.templateGroupIdEmpty).nullable().optional(),
    targetUrl: z
      .string({ error: wording.targetUrl })
      .trim()
      .pipe(z.url({ protocol: /^https?$/, error: wording.targetUrl }))
      .pipe(z.string().max(2048, wording.targetUrl)),
    method: z.enum(httpMethods, { error: templateMessages.methodInvalid }),
    pollingIntervalSeconds: z
      .number({ error: templateMessages.pollingInterval })
      .int(templateMessages.pollingInterval)
      .min(MIN_POLLING_INTERVAL_SECONDS, templateMessages.pollingInterval)
      .max(MAX_POLLING_INTERVAL_SECONDS, templateMessages.pollingInterval),
    defaultHeaders: z.record(
      z.string().trim().min(1, templateMessages.headerNameRequired),
      z.string({ error: templateMessages.headerValueText }),
    ),
    defaultQuery: z.record(z.string().trim().min(1, templateMessages.queryKeyRequired), queryValueSchema),
    defaultBody: jsonValueSchema.nullable().optional(),
    responseWatchConfig: watchConfigSchema.nullable().optional(),
    responseWatchPresets: watchPresetsSchema.nullable().optional(),
    isActive: z.boolean(),
    editableFields: z.array(editableFieldSchema),
    /** Which editable fields carry the stay, for alerts that watch a window of stays. */
    stay: templateStaySchema.nullable().optional(),
  };
}

interface CrossFieldInput {
  editableFields?: EditableField[] | undefined;
  stay?: TemplateStay | null | undefined;
  responseWatchPresets?: WatchPresets | null | undefined;
}

/** Rules that span fields: unique field targets/paths, valid body paths, counted repeats, rule ids. */
function checkTemplate(t: CrossFieldInput, ctx: z.RefinementCtx): void {
  const fields = t.editableFields ?? [];
  const seen = new Set<string>();
  fields.forEach((field, i) => {
    const key = `${field.target}:${field.path}`;
    if (seen.has(key)) {
      ctx.addIssue({
        code: 'custom',
        path: ['editableFields', i, 'path'],
        message: templateMessages.duplicateField,
      });
    }
    seen.add(key);
    if (field.target === 'BODY' && parseObjectPath(field.path) === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['editableFields', i, 'path'],
        message: templateMessages.bodyPathInvalid,
      });
    }
    if (isRepeatable(field) && field.options.repeatCountField) {
      const ref = field.options.repeatCountField;
      const counter = fields.find((f) => f.target === ref.target && f.path === ref.path);
      if (counter?.fieldType !== 'NUMBER' || isRepeatable(counter)) {
        ctx.addIssue({
          code: 'custom',
          path: ['editableFields', i, 'options', 'repeatCountField'],
          message: templateMessages.repeatCountField,
        });
      }
    }
  });
  if (t.stay) checkStay(t.stay, fields, ctx);
  const presets = t.responseWatchPresets;
  if (presets) {
    const ids = new Set<string>();
    for (const [list, items] of [
      ['all', presets.all],
      ['any', presets.any],
    ] as const) {
      items.forEach((preset, i) => {
        if (ids.has(preset.id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['responseWatchPresets', list, i, 'id'],
            message: templateMessages.duplicateRuleId,
          });
        }
        ids.add(preset.id);
      });
    }
  }
}

/** The stay names fields of this template: check-in and check-out DATE fields, nights a NUMBER field. */
function checkStay(stay: TemplateStay, fields: EditableField[], ctx: z.RefinementCtx): void {
  const wanted = [
    ['checkIn', 'check-in', 'DATE'],
    ['checkOut', 'check-out', 'DATE'],
    ['nights', 'nights', 'NUMBER'],
  ] as const;
  for (const [key, label, type] of wanted) {
    const ref = stay[key];
    if (!ref) continue;
    const field = fields.find((f) => f.target === ref.target && f.path === ref.path);
    if (field?.fieldType !== type || isRepeatable(field)) {
      ctx.addIssue({
        code: 'custom',
        path: ['stay', key],
        message: stayWindowMessages.stayFieldType(label, type),
      });
    }
  }
}

function createSchema(wording: FieldWording) {
  const shape = templateShape(wording);
  return z
    .object({
      ...shape,
      method: shape.method.default('POST'),
      pollingIntervalSeconds: shape.pollingIntervalSeconds.default(templatePollingDefault),
      defaultHeaders: shape.defaultHeaders.default({}),
      defaultQuery: shape.defaultQuery.default({}),
      isActive: shape.isActive.default(true),
      editableFields: shape.editableFields.default([]),
    })
    .superRefine(checkTemplate);
}

/** POST /api/templates. */
export const templateCreateInput = createSchema({
  name: templateMessages.nameRequired,
  targetUrl: templateMessages.targetUrlInvalid,
});
export type TemplateCreateInput = z.infer<typeof templateCreateInput>;
export type TemplateCreateInputRaw = z.input<typeof templateCreateInput>;

/** The admin editor's form: the same rules in the editor's words. */
export const templateEditorSchema = createSchema({
  name: templateMessages.editorNameRequired,
  targetUrl: templateMessages.editorTargetUrlInvalid,
});

/** The fields a PATCH may carry; every one optional, the same rules when present. */
export const templatePatchSchema = z
  .object(
    templateShape({ name: templateMessages.nameRequired, targetUrl: templateMessages.targetUrlInvalid }),
  )
  .partial()
  .superRefine(checkTemplate);
export type TemplatePatch = z.infer<typeof templatePatchSchema>;

const idSchema = z.string().trim().min(1, templateMessages.notFound).max(100, templateMessages.notFound);

export const templateIdInput = z.object({ id: idSchema });

/** PATCH /api/templates/{id}: the id from the path plus the fields to change. */
export const templateUpdateInput = z.object({ id: idSchema }).and(templatePatchSchema);
export type TemplateUpdateInput = z.infer<typeof templateUpdateInput>;

/** POST /api/templates/{id}/test: the editor's current (possibly unsaved) values over the saved template. */
export const templateTestInput = z.object({ id: idSchema, template: templatePatchSchema.optional() });
export type TemplateTestInput = z.infer<typeof templateTestInput>;

export const templateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  resortCode: z.string(),
  templateGroupId: z.string().nullable(),
  templateGroup: z.object({ name: z.string(), displayOrder: z.number() }).nullable(),
  targetUrl: z.string(),
  method: z.enum(httpMethods),
  pollingIntervalSeconds: z.number(),
  defaultHeaders: z.record(z.string(), z.string()),
  defaultQuery: z.record(z.string(), queryValueSchema),
  defaultBody: z.unknown(),
  responseWatchConfig: watchConfigSchema.nullable(),
  responseWatchPresets: watchPresetsSchema.nullable(),
  isActive: z.boolean(),
  editableFields: z.array(editableFieldSchema),
  stay: templateStaySchema.nullable(),
  createdAt: z.string(),
});
export type Template = z.infer<typeof templateSchema>;

export const templateTestResultSchema = z.object({
  request: z.object({
    url: z.string(),
    method: z.enum(httpMethods),
    headers: z.record(z.string(), z.string()),
    query: z.record(z.string(), queryValueSchema),
    body: z.unknown(),
  }),
  response: z.object({ status: z.number(), data: z.unknown() }).nullable(),
  durationMs: z.number(),
  error: z.string().nullable(),
});
export type TemplateTestResult = z.infer<typeof templateTestResultSchema>;

const groupName = z
  .string({ error: templateGroupMessages.nameRequired })
  .trim()
  .min(1, templateGroupMessages.nameEmpty)
  .max(120, templateGroupMessages.nameTooLong);
const groupDescription = z.string().trim().max(2000).nullable().optional();
const displayOrder = z
  .number({ error: templateGroupMessages.displayOrder })
  .int(templateGroupMessages.displayOrder)
  .min(0, templateGroupMessages.displayOrder)
  .max(1_000_000, templateGroupMessages.displayOrder);

export const templateGroupCreateInput = z.object({
  name: groupName,
  description: groupDescription,
  displayOrder: displayOrder.optional(),
});
export type TemplateGroupCreateInput = z.infer<typeof templateGroupCreateInput>;

export const templateGroupPatchSchema = z
  .object({
    name: groupName.optional(),
    description: groupDescription,
    displayOrder: displayOrder.optional(),
  })
  .refine((g) => g.name !== undefined || g.description !== undefined || g.displayOrder !== undefined, {
    message: templateGroupMessages.updateNeedsField,
  });

export const templateGroupUpdateInput = z.object({ id: idSchema }).and(templateGroupPatchSchema);
export type TemplateGroupUpdateInput = z.infer<typeof templateGroupUpdateInput>;

export const templateGroupIdInput = z.object({ id: idSchema });

export const templateGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  displayOrder: z.number(),
  createdAt: z.string(),
});
export type TemplateGroup = z.infer<typeof templateGroupSchema>;
