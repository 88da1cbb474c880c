import { z } from 'zod';
import { adminAlertSchema, alertSchema } from './alert.schema.ts';
import { apiSchemas } from './api.schema.ts';
import { jsonValueSchema } from './json-value.schema.ts';
import { alertHealths, pollClasses } from './poll-health.ts';
import { operators } from './watch.schema.ts';

/**
 * What each alert saw, when and why ([alert-insight]): the figures of an alert row, the alert page,
 * "Check now" and the live events. The procedures declare these as their `.output()`.
 */

const iso = z.string();

export const dateRangeSchema = z.object({ start: z.string(), end: z.string() });

/** An alert's life at a glance, read with the list (no query per row). */
export const alertActivitySchema = z.object({
  /** When the last poll started (null before the first). */
  lastCheckedAt: iso.nullable(),
  /** When the next poll is due (null when the alert is not polled). */
  nextCheckAt: iso.nullable(),
  /** When availability (the match state) last changed. */
  availabilityChangedAt: iso.nullable(),
  /** Why the last poll failed, in words (null after a good poll). */
  lastError: z.string().nullable(),
  lastStatusCode: z.number().int().nullable(),
  consecutiveErrors: z.number().int(),
  /** The last "Check now" (its rate limit counts from here). */
  checkRequestedAt: iso.nullable(),
  /** Health (docs/product.md, "Alert health"), the poll class behind it and since when. */
  health: z.enum(alertHealths),
  healthCause: z.enum(pollClasses).nullable(),
  healthSince: iso.nullable(),
  /** The health and its cause in words ("Failing: refused by the site …"). */
  healthWords: z.string(),
  /** The last poll whose answer the rules could read (null before one). */
  lastSuccessAt: iso.nullable(),
});
export type AlertActivity = z.infer<typeof alertActivitySchema>;

const rowFields = {
  /** The dates the alert polls: from the request the shared builder builds for it. */
  dateRange: dateRangeSchema.nullable(),
  activity: alertActivitySchema,
};

/** A row of GET /users/me/registrations. */
export const alertRowSchema = alertSchema.extend(rowFields);
export type AlertRow = z.infer<typeof alertRowSchema>;

/** A row of GET /admin/registrations. */
export const adminAlertRowSchema = adminAlertSchema.extend(rowFields);
export type AdminAlertRow = z.infer<typeof adminAlertRowSchema>;

export const pollOutcomes = ['matched', 'not_matched', 'error'] as const;
export type PollOutcome = (typeof pollOutcomes)[number];

export const pollRunSchema = z.object({
  id: z.string(),
  startedAt: iso,
  dueAt: iso,
  outcome: z.enum(pollOutcomes),
  /** What the poll saw (null on polls recorded before classes were), and that in words. */
  pollClass: z.enum(pollClasses).nullable(),
  classWords: z.string(),
  durationMs: z.number().int(),
  latenessMs: z.number().int(),
  statusCode: z.number().int().nullable(),
  /** The proxy the request went through ("host:port"), or null for a direct request. */
  via: z.string().nullable(),
  notified: z.boolean(),
  error: z.string().nullable(),
  watchedValue: z.number().nullable(),
});

export const timelineBucketSchema = z.object({
  at: iso,
  matched: z.number().int(),
  notMatched: z.number().int(),
  errors: z.number().int(),
  /** The causes of the bucket's failed or drifted polls, in words. */
  causes: z.array(z.string()),
  /** The lowest and highest watched value of the bucket's polls, where numeric. */
  minValue: z.number().nullable(),
  maxValue: z.number().nullable(),
});

export const timelineSchema = z.object({
  from: iso,
  to: iso,
  bucketSeconds: z.number().int(),
  polls: z.number().int(),
  buckets: z.array(timelineBucketSchema),
});

const ruleExplanationSchema = z.object({
  group: z.enum(['all', 'any']),
  path: z.string(),
  label: z.string().nullable(),
  operator: z.enum(operators),
  operatorWords: z.string(),
  expected: jsonValueSchema,
  found: z.array(jsonValueSchema),
  foundCount: z.number().int(),
  matched: z.array(jsonValueSchema),
  matchedCount: z.number().int(),
  holds: z.boolean(),
  missingRequired: z.boolean(),
  previous: jsonValueSchema.optional(),
  words: z.array(z.string()),
});

export const evaluationExplanationSchema = z.object({
  matched: z.boolean(),
  allHeld: z.boolean().nullable(),
  anyHeld: z.boolean().nullable(),
  rules: z.array(ruleExplanationSchema),
});

export const lastAnswerSchema = z.object({
  receivedAt: iso,
  statusCode: z.number().int().nullable(),
  bytes: z.number().int(),
  /** The answer, or null when it was larger than kept. */
  json: jsonValueSchema.nullable(),
});

export const alertNotificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  message: z.string(),
  createdAt: iso,
  deliveries: z.array(
    z.object({
      id: z.string(),
      status: z.enum(['PENDING', 'SUCCESS', 'FAILURE']),
      serviceType: z.string(),
      serviceLabel: z.string().nullable(),
      attempts: z.number().int(),
      error: z.string().nullable(),
      dispatchedAt: iso.nullable(),
    }),
  ),
});

/** GET /registrations/{id}/insight: everything the alert page shows. */
export const alertInsightSchema = z.object({
  alert: adminAlertRowSchema,
  timeline: timelineSchema,
  polls: z.array(pollRunSchema),
  lastAnswer: lastAnswerSchema.nullable(),
  /** The latest answer judged by the shared evaluator with the alert's rules (null without one). */
  explanation: evaluationExplanationSchema.nullable(),
  notifications: z.array(alertNotificationSchema),
  /** When "Check now" may next be used (null: now). */
  checkAvailableAt: iso.nullable(),
});
export type AlertInsight = z.infer<typeof alertInsightSchema>;

export const checkNowResultSchema = z.object({
  /** The poll is due at this time; the engine takes it within its next tick. */
  dueAt: iso,
  checkAvailableAt: iso,
});
export type CheckNowResult = z.infer<typeof checkNowResultSchema>;

/** Least time between two "Check now" of one alert. */
export const checkNowIntervalSeconds = 30;

/** "ready" opens every stream (and every resumed one): the client catches up on what it shows. */
/** 'health': an alert's health changed (its status field carries the health). */
export const liveEventKinds = ['ready', 'notification', 'delivery', 'status', 'poll', 'health'] as const;

/** A pushed event (tRPC subscription `live.events`). */
export const liveEventSchema = z.object({
  kind: z.enum(liveEventKinds),
  /** The durable event id (absent on poll events, which are not kept). */
  id: z.string().nullable(),
  userId: z.string(),
  registrationId: z.string().nullable(),
  status: z.string().nullable(),
  notificationId: z.string().nullable(),
  message: z.string().nullable(),
  notificationKind: z.string().nullable(),
});
export type LiveEvent = z.infer<typeof liveEventSchema>;

export const liveSubscriptionInput = z
  .object({
    /** "all": every user's events, for admin views (admins only). */
    scope: z.enum(['mine', 'all']).default('mine'),
    lastEventId: z.string().nullish(),
  })
  .default({ scope: 'mine' });

// Named in the API document (components.schemas), so integrators' generated types read well.
apiSchemas.add(alertInsightSchema, { id: 'AlertInsight', description: 'What an alert saw, when and why.' });
apiSchemas.add(checkNowResultSchema, { id: 'CheckNowResult' });
apiSchemas.add(alertRowSchema, {
  id: 'AlertRow',
  description: 'An alert with the dates it polls and its activity.',
});
apiSchemas.add(adminAlertRowSchema, { id: 'AdminAlertRow' });
