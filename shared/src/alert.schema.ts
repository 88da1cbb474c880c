import { z } from 'zod';
import { overridesSchema } from './editable-field.schema.ts';
import { jsonValueSchema } from './json-value.schema.ts';
import {
  MAX_POLLING_INTERVAL_SECONDS,
  MIN_POLLING_INTERVAL_SECONDS,
  pollingIntervalRangeMessage,
} from './polling.ts';
import { stayStatesSchema, stayWindowSchema, stayWindowsSchema } from './stay-window.ts';
import { type WatchConfig, watchConfigSchema } from './watch.schema.ts';

/**
 * Alerts: their fields, statuses and messages (docs/product.md, "Alerts, templates and other entities"; "Statuses"; "Validation and messages").
 * Screen texts live in ui-messages. The REST contract still calls an alert a registration
 * (`/api/registrations`, the `Registration` schemas): those names are set in api.schema.ts.
 */
export const alertMessages = {
  templateRequired: 'Template selection is required',
  checkNotPolled: 'Only an alert that is being polled can be checked now.',
  snoozeInvalid: 'Snooze until must be a date and time (ISO 8601) or null.',
  snoozeInPast: 'Snooze until a time in the future.',
  checkTooSoon: (seconds: number) => `This alert was checked moments ago. Try again in ${seconds} s.`,
  chooseTemplateFirst: 'Choose a template before configuring the alert.',
  templateUnavailable: 'The chosen template is not available.',
  titleEmpty: 'Title cannot be empty.',
  titleTooLong: 'Title must be at most 200 characters.',
  partyNameEmpty: 'Party name cannot be empty.',
  partyNameTooLong: 'Party name must be at most 200 characters.',
  tagEmpty: 'Tags cannot be empty.',
  tagTooLong: 'Tags must be at most 60 characters.',
  tooManyTags: 'An alert can have at most 50 tags.',
  pollingIntervalNumber: 'Polling interval must be a number.',
  pollingIntervalRange: pollingIntervalRangeMessage,
  fieldRequired: 'This field is required.',
  atLeastOneValue: 'Provide at least one value for this field.',
  singleValue: 'Provide a single value for this field.',
  linkedEntry: (label: string) => `Provide a value for the entry linked to "${label}".`,
  linkedEntries: (n: number, label: string) => `Provide values for all ${n} entries linked to "${label}".`,
  requiredSummary: 'Please fill in the required fields.',
  dateInPast: 'Date is in the past. Choose a future date.',
  datesInPast: 'One or more selected dates are in the past. Please choose future dates.',
  dateInvalid: 'Enter a date as YYYY-MM-DD.',
  adultsRange: 'Adults must be a whole number between 1 and 10.',
  childrenRange: 'Children must be a whole number between 0 and 10.',
  childAgeRange: 'Child ages must be whole numbers between 0 and 17.',
  selectOption: 'Choose one of the offered options.',
  notOverridable: 'This field cannot be overridden with the chosen template.',
  inputNumber: (label: string) => `${label}: Enter a valid number.`,
  inputBoolean: 'Enter true or false.',
  inputRequired: (rule: string, input: string) => `${rule}: ${input} is required.`,
  ruleRequired: 'Select at least one alert rule to enable.',
  unknownRule: 'This alert rule is not offered by the chosen template.',
  misconfigured: 'Alert rules for this template are misconfigured. Ask an administrator to review them.',
  invalidJson: 'Unable to parse JSON. Please verify your syntax.',
  queryValueType: 'Query override values must be a string, number or boolean.',
  headerValueType: 'Header values must be text.',
  serviceNotAvailable: 'Choose from your active notification services.',
  statusNotAllowed: 'Status must be ACTIVE, BOOKED or PASSED.',
  statusInvalid: 'Status must be one of ACTIVE, FIRING, BOOKED, PASSED, DISABLED, INACTIVE or ERROR.',
  notFound: 'Alert not found.',
} as const;

export const alertStatuses = [
  'ACTIVE',
  'FIRING',
  'BOOKED',
  'PASSED',
  'DISABLED',
  'INACTIVE',
  'ERROR',
] as const;
export type AlertStatus = (typeof alertStatuses)[number];

/**
 * Every status an answer may carry: an archived alert (the archive's, [watchlists]) still answers by
 * id and on its own page. Nobody sets ARCHIVED through an update; the archive has its own calls.
 */
export const alertAnswerStatuses = [...alertStatuses, 'ARCHIVED'] as const;

/** What the alert list menu lets a user set (docs/product.md, "Statuses"); admins may set any status. */
export const userSettableStatuses = ['ACTIVE', 'BOOKED', 'PASSED'] as const;

export const userStatusSchema = z.enum(userSettableStatuses, {
  error: alertMessages.statusNotAllowed,
});
export const adminStatusSchema = z.enum(alertStatuses, { error: alertMessages.statusInvalid });

const m = alertMessages;
const scalar = z.union([z.string(), z.number(), z.boolean()]);

const optionalText = (empty: string, tooLong: string) =>
  z.string({ error: empty }).trim().min(1, empty).max(200, tooLong).nullable().optional();

/** An alert's own JSON body: any JSON value (the API document calls it `JsonBody`). */
export const customBodySchema = z.json({ error: m.invalidJson });

const payloadFields = {
  templateId: z.string({ error: m.templateRequired }).trim().min(1, m.templateRequired),
  title: optionalText(m.titleEmpty, m.titleTooLong),
  partyName: optionalText(m.partyNameEmpty, m.partyNameTooLong),
  tags: z
    .array(z.string({ error: m.tagEmpty }).trim().min(1, m.tagEmpty).max(60, m.tagTooLong))
    .max(50, m.tooManyTags)
    .optional(),
  customHeaders: z.record(z.string(), z.string({ error: m.headerValueType })).optional(),
  customQuery: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()], { error: m.queryValueType }))
    .optional(),
  customBody: customBodySchema.nullable().optional(),
  overrides: overridesSchema.optional(),
  /** Flexible dates: windows of stays watched instead of the fixed dates (null: fixed dates). */
  stayWindow: stayWindowsSchema.nullable().optional(),
  watchConfig: watchConfigSchema.optional(),
  pollingIntervalSeconds: z
    .number({ error: m.pollingIntervalNumber })
    .int(m.pollingIntervalRange)
    .min(MIN_POLLING_INTERVAL_SECONDS, m.pollingIntervalRange)
    .max(MAX_POLLING_INTERVAL_SECONDS, m.pollingIntervalRange)
    .optional(),
  notificationServiceIds: z.array(z.string().min(1)).max(50).optional(),
  /** Urgent: every channel uses its high priority (ntfy 5, Pushover emergency, push urgency high). */
  urgent: z.boolean().optional(),
};

function countRules(watchConfig: Pick<WatchConfig, 'all' | 'any'> | undefined): number {
  return (watchConfig?.all.length ?? 0) + (watchConfig?.any.length ?? 0);
}

function requireRule(v: { watchConfig?: WatchConfig | undefined }, ctx: z.RefinementCtx) {
  if (countRules(v.watchConfig) === 0) {
    ctx.addIssue({ code: 'custom', path: ['watchConfig'], message: m.ruleRequired });
  }
}

/** Create payload (POST /api/registrations). */
export const alertPayloadSchema = z.object(payloadFields).superRefine(requireRule);
export type AlertPayload = z.infer<typeof alertPayloadSchema>;
export type AlertPayloadInput = z.input<typeof alertPayloadSchema>;

/** The alert test runs the prepared payload, rules optional (no rules: availability is the status code). */
export const alertTestInput = z.object(payloadFields);
export type AlertTestInput = z.infer<typeof alertTestInput>;

const payloadKeys = Object.keys(payloadFields) as (keyof typeof payloadFields)[];

/** `{status}` alone changes only the status; anything else is a full payload. */
export function isStatusOnly(input: Record<string, unknown>): boolean {
  return input.status !== undefined && payloadKeys.every((k) => input[k] === undefined);
}

function updateSchema<S extends z.ZodType<string>>(status: S) {
  return z
    .object({
      ...payloadFields,
      id: z.string().min(1),
      templateId: payloadFields.templateId.optional(),
      status: status.optional(),
    })
    .superRefine((v, ctx) => {
      if (isStatusOnly(v)) return;
      if (v.templateId === undefined) {
        ctx.addIssue({ code: 'custom', path: ['templateId'], message: m.templateRequired });
      }
      requireRule(v, ctx);
    });
}

/** PATCH /api/registrations/{id}: the full payload, or `{status}` alone (ACTIVE, BOOKED, PASSED). */
export const updateAlertInput = updateSchema(userStatusSchema);
export type UpdateAlertInput = z.infer<typeof updateAlertInput>;

/** PATCH /api/admin/registrations/{id}: as above, with every status. */
export const adminUpdateAlertInput = updateSchema(adminStatusSchema);
export type AdminUpdateAlertInput = z.infer<typeof adminUpdateAlertInput>;

export const alertIdInput = z.object({ id: z.string().min(1) });

/** POST /registrations/{id}/snooze: no notification is sent until `until` (null wakes it); polling goes on. */
export const snoozeAlertInput = z.object({
  id: z.string().min(1),
  until: z.iso.datetime({ offset: true, error: alertMessages.snoozeInvalid }).nullable(),
});
export type SnoozeAlertInput = z.infer<typeof snoozeAlertInput>;

const isoDate = z.string();
const json = jsonValueSchema;

/** An alert as the API answers it (the `Registration` schema of the API document). */
export const alertSchema = z.object({
  id: z.string(),
  userId: z.string(),
  status: z.enum(alertAnswerStatuses),
  title: z.string().nullable(),
  templateId: z.string(),
  template: z.object({
    name: z.string(),
    defaultBody: json.nullable(),
    defaultQuery: z.record(z.string(), scalar),
    templateGroupId: z.string().nullable(),
  }),
  partyName: z.string().nullable(),
  tags: z.array(z.string()),
  user: z.object({ email: z.string(), name: z.string().nullable() }),
  customHeaders: z.record(z.string(), z.string()),
  customQuery: z.record(z.string(), scalar),
  customBody: json.nullable(),
  overrides: overridesSchema,
  stayWindow: z.array(stayWindowSchema).nullable(),
  /** A window alert's stays from the latest results (open, not open, not checked); null otherwise. */
  stayStates: stayStatesSchema.nullable(),
  watchConfig: watchConfigSchema,
  pollingIntervalSeconds: z.number().int(),
  urgent: z.boolean(),
  /** Notifications are held back until then (null: not snoozed). */
  snoozedUntil: isoDate.nullable(),
  notificationServices: z.array(
    z.object({
      notificationServiceId: z.string(),
      type: z.string(),
      label: z.string().nullable(),
      isActive: z.boolean(),
    }),
  ),
  lastRunAt: isoDate.nullable(),
  lastNotifiedAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Alert = z.infer<typeof alertSchema>;

/** A row of the admin list: the alert, and whether it has fallen behind its schedule. */
export const adminAlertSchema = alertSchema.extend({
  /** Active, and no poll completed within three intervals. */
  stale: z.boolean(),
});
export type AdminAlert = z.infer<typeof adminAlertSchema>;

export const alertTestResultSchema = z.object({
  success: z.boolean(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number(),
  availabilityOpen: z.boolean(),
  watch: z.object({ matched: z.boolean() }).nullable(),
  /** Why the request failed (blocked, timed out, …); absent on an answered request. */
  error: z.string().optional(),
});
export type AlertTestResult = z.infer<typeof alertTestResultSchema>;
