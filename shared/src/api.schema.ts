import { z } from 'zod';
import {
  adminAlertSchema,
  alertPayloadSchema,
  alertSchema,
  alertTestResultSchema,
  customBodySchema,
} from './alert.schema.ts';
import { apiTokenSchema, createdApiTokenSchema } from './api-token.schema.ts';
import { profileSchema, userSchema } from './auth.schema.ts';
import { jsonValueSchema } from './json-value.schema.ts';
import {
  channelVerifications,
  dispatchStatuses,
  notificationServiceTypes,
  webhookMethods,
} from './notification-service.schema.ts';
import { proxyProtocols } from './proxy.schema.ts';
import {
  templateCreateInput,
  templateGroupSchema,
  templateSchema,
  templateTestResultSchema,
} from './template.schema.ts';
import { roomLookupSchema } from './template-sample.ts';
import {
  accountExportSchema,
  adminUserDetailSchema,
  adminUserSchema,
  authOptionsSchema,
  createdInvitationSchema,
  invitationLookupSchema,
  invitationSchema,
  issuedLinkSchema,
  signupSettingsSchema,
} from './users.schema.ts';
import { conditionSchema, watchConfigSchema, watchPresetsSchema } from './watch.schema.ts';

/**
 * The API's answers as schemas: every procedure exposed on REST declares one of these (or a schema
 * of its module) as its `.output()`, so the OpenAPI document types every response, and tRPC checks
 * each answer against it. Named schemas are listed in `apiSchemas`: the document gives each its
 * own entry under `components.schemas`, so integrators' generated types get readable names.
 */
export const apiSchemas = z.registry<ApiSchemaMeta>();

export interface ApiSchemaMeta {
  id: string;
  description?: string;
  /**
   * Any JSON value: documented as an open schema rather than z.json()'s recursive union, which
   * generated clients (openapi-typescript + openapi-fetch) cannot resolve.
   */
  anyJson?: boolean;
}

/** The body of every error answer, on REST and (as `message` + `data.appCode`) on tRPC. */
export const apiErrorSchema = z.object({
  message: z.string(),
  /** The error table's code: BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, … */
  code: z.string(),
  /** Every input rule that failed, for a 400; `path` is dotted ("watchConfig.all.0.value"). */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** How long to wait before trying again, for a 429 (also in the Retry-After header). */
  retryAfterSeconds: z.number().int().optional(),
});

export const authTokensSchema = z.object({ accessToken: z.string(), expiresIn: z.number().int() });
export const authResultSchema = z.object({ tokens: authTokensSchema, user: userSchema });

/** The notification outbox's figures for the whole pool of workers (docs/api.md, "[delivery]"). */
export const deliveryFiguresSchema = z.object({
  /** Undelivered deliveries: due now plus those waiting for a retry. */
  pending: z.number().int(),
  due: z.number().int(),
  /** Seconds the longest-waiting due delivery has waited since it became due. */
  oldestDueSeconds: z.number().nullable(),
  /** Age of the oldest undelivered delivery (retries included). */
  oldestPendingSeconds: z.number().nullable(),
  lastMinute: z.object({ delivered: z.number().int(), deliveriesPerSecond: z.number() }),
});
export type DeliveryFigures = z.infer<typeof deliveryFiguresSchema>;

export const healthReportSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ready: z.boolean(), error: z.string().optional() }),
  queue: z.object({ ready: z.boolean(), error: z.string().optional() }),
  /** The engine's figures (workers, backlog, polls/s, lateness); their shape is docs/api.md's. */
  engine: z.record(z.string(), z.unknown()).optional(),
  deliveries: z.union([deliveryFiguresSchema, z.object({ error: z.string() })]).optional(),
  /**
   * Each template with polled alerts: how many, how many failing, drifted and degraded, the share
   * failing, the dominant cause (a poll class) and since when (docs/product.md, "Alert health").
   */
  templates: z
    .array(
      z.object({
        templateId: z.string(),
        templateName: z.string(),
        polled: z.number().int(),
        failing: z.number().int(),
        drifted: z.number().int(),
        degraded: z.number().int(),
        failingShare: z.number(),
        cause: z.string().nullable(),
        since: z.string().nullable(),
      }),
    )
    .optional(),
});
export type HealthReport = z.infer<typeof healthReportSchema>;

const webhookConfigOutput = z.object({
  url: z.string(),
  method: z.enum(webhookMethods),
  headers: z.array(z.object({ name: z.string(), value: z.string() })),
  bodyTemplate: z.string(),
});
const slackConfigOutput = z.object({
  url: z.string(),
  channel: z.string().optional(),
  username: z.string().optional(),
});
const emailConfigOutput = z.object({ toEmail: z.string() });
const smsConfigOutput = z.object({ toNumber: z.string() });
// Native channels: their secrets come back masked (maskSecret); Discord and Teams read as Slack's shape.
const ntfyConfigOutput = z.object({
  url: z.string(),
  topic: z.string(),
  token: z.string().optional(),
  priority: z.number(),
});
const pushoverConfigOutput = z.object({
  userKey: z.string(),
  appToken: z.string(),
  device: z.string().optional(),
});
const telegramConfigOutput = z.object({ botToken: z.string(), chatId: z.string() });
const webPushConfigOutput = z.object({ endpoint: z.string(), p256dh: z.string(), auth: z.string() });
export const webPushKeySchema = z.object({ publicKey: z.string() });

export const notificationServiceSchema = z.object({
  id: z.string(),
  type: z.enum(notificationServiceTypes),
  label: z.string().nullable(),
  isActive: z.boolean(),
  config: z.union([
    webhookConfigOutput,
    ntfyConfigOutput,
    pushoverConfigOutput,
    telegramConfigOutput,
    webPushConfigOutput,
    slackConfigOutput,
    emailConfigOutput,
    smsConfigOutput,
  ]),
  /** The Standard Webhooks secret (whsec_…), shown to the owner of a WEBHOOK service only. */
  signingSecret: z.string().nullable(),
  /** Why the server deactivated it (e.g. the receiver answered 410), or null. */
  deactivatedReason: z.string().nullable(),
  /** E-mail and SMS receive alerts only once verified (channelVerifications). */
  verification: z.enum(channelVerifications),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const messageResultSchema = z.object({ message: z.string() });

export const notificationRecordSchema = z.object({
  id: z.string(),
  notificationId: z.string(),
  notificationServiceId: z.string(),
  notificationService: z.object({ type: z.enum(notificationServiceTypes), label: z.string().nullable() }),
  registration: z
    .object({
      id: z.string(),
      title: z.string().nullable(),
      partyName: z.string().nullable(),
      template: z.object({ name: z.string() }),
    })
    .nullable(),
  /** What it says: MATCH, RESOLVED, FAILING, DRIFTED, RECOVERED or TEMPLATE_FAILING. */
  kind: z.string(),
  message: z.string(),
  error: z.string().nullable(),
  status: z.enum(dispatchStatuses),
  attempts: z.number().int(),
  dispatchedAt: z.string().nullable(),
  createdAt: z.string(),
});

export const webProxySchema = z.object({
  id: z.string(),
  host: z.string(),
  port: z.number().int(),
  protocol: z.enum(proxyProtocols),
  username: z.string().nullable(),
  password: z.string().nullable(),
  isActive: z.boolean(),
  successCount: z.number().int(),
  failureCount: z.number().int(),
  consecutiveFailures: z.number().int(),
  lastAttemptAt: z.string().nullable(),
  lastSuccessfulAt: z.string().nullable(),
  lastSuccessfulUrl: z.string().nullable(),
  lastFailureAt: z.string().nullable(),
  lastFailureReason: z.string().nullable(),
  /** Disabled with 5 or more consecutive failures. */
  autoDisabled: z.boolean(),
});

export const importProxiesResultSchema = z.object({
  created: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), reason: z.string(), content: z.string() })),
});

export const updatedCountSchema = z.object({ updated: z.number().int() });

export const templateGeneratorInfoSchema = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string(),
});

export const templateSampleSchema = z.object({
  generatorId: z.string(),
  label: z.string(),
  /** A draft for POST /api/templates: the editor checks and completes it before saving. */
  template: z.record(z.string(), z.unknown()),
  roomLookup: roomLookupSchema,
});

/** GET /users/me: the account with its channels and alerts. */
export const userSummarySchema = z.object({
  user: userSchema,
  notificationServices: z.array(notificationServiceSchema),
  registrations: z.array(alertSchema),
});

/** No content: the REST answer is 204 with an empty body. */
export const noContent = z.void();

const named: [z.ZodType, string, string?][] = [
  [
    apiErrorSchema,
    'Error',
    'Every error answer: a readable message, a stable code, and the issues of a 400.',
  ],
  [authTokensSchema, 'AuthTokens'],
  [apiTokenSchema, 'ApiToken'],
  [createdApiTokenSchema, 'CreatedApiToken'],
  [authResultSchema, 'AuthResult'],
  [userSchema, 'User'],
  [profileSchema, 'Profile'],
  [userSummarySchema, 'UserSummary'],
  [healthReportSchema, 'HealthReport'],
  [notificationServiceSchema, 'NotificationService'],
  [webhookConfigOutput, 'WebhookConfig'],
  [slackConfigOutput, 'SlackConfig'],
  [emailConfigOutput, 'EmailConfig'],
  [smsConfigOutput, 'SmsConfig'],
  [messageResultSchema, 'MessageResult'],
  [notificationRecordSchema, 'NotificationRecord'],
  [webProxySchema, 'WebProxy'],
  [importProxiesResultSchema, 'ImportProxiesResult'],
  [updatedCountSchema, 'UpdatedCount'],
  [alertSchema, 'Registration', 'An alert.'],
  [adminAlertSchema, 'AdminRegistration'],
  [alertPayloadSchema, 'RegistrationPayload'],
  [alertTestResultSchema, 'RegistrationTestResult'],
  [watchConfigSchema, 'WatchConfig'],
  [watchPresetsSchema, 'WatchPresets'],
  [conditionSchema, 'Condition'],
  [templateSchema, 'Template'],
  [templateCreateInput, 'TemplateCreateInput'],
  [templateTestResultSchema, 'TemplateTestResult'],
  [templateGroupSchema, 'TemplateGroup'],
  [templateGeneratorInfoSchema, 'TemplateGenerator'],
  [templateSampleSchema, 'TemplateSample'],
  [roomLookupSchema, 'RoomLookup'],
  [adminUserSchema, 'AdminUser', 'An account as the Users screen lists it.'],
  [adminUserDetailSchema, 'AdminUserDetail'],
  [issuedLinkSchema, 'IssuedLink', 'A single-use link an administrator hands over.'],
  [signupSettingsSchema, 'SignupSettings'],
  [invitationSchema, 'Invitation'],
  [createdInvitationSchema, 'CreatedInvitation'],
  [authOptionsSchema, 'AuthOptions'],
  [invitationLookupSchema, 'InvitationLookup'],
  [accountExportSchema, 'AccountExport'],
];
for (const [schema, id, description] of named) {
  apiSchemas.add(schema, description ? { id, description } : { id });
}
apiSchemas.add(jsonValueSchema, { id: 'JsonValue', description: 'Any JSON value.', anyJson: true });
apiSchemas.add(customBodySchema, {
  id: 'JsonBody',
  description: 'Any JSON value: the body an alert sends.',
  anyJson: true,
});

/** Names another module's schema for the document (e.g. a new module's own answer schema). */
export function nameApiSchema<T extends z.ZodType>(schema: T, id: string, description?: string): T {
  apiSchemas.add(schema, description ? { id, description } : { id });
  return schema;
}
