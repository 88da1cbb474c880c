import { z } from 'zod';
import { alertSchema, alertStatuses } from './alert.schema.ts';
import { nameApiSchema } from './api.schema.ts';

/**
 * Watchlists, the archive and the Home/Dashboard summary (docs/product.md, "Alerts, templates and
 * other entities"). Their numbers ("Limits and constants") are here once for server and client.
 */
export const watchlistMessages = {
  nameRequired: 'Name required',
  nameTooLong: 'Name must be at most 120 characters.',
  notesTooLong: 'Notes must be at most 2000 characters.',
  quarterInvalid: 'Quarter must be Q1, Q2, Q3 or Q4.',
  resortUnknown: 'Choose a resort from the templates.',
  notFound: 'Watchlist not found.',
  alertNotFound: 'Alert not found.',
  selectAlerts: 'Select at least one alert.',
  tooManyAlerts: 'Select at most 500 alerts at a time.',
  loadFailed: 'Unable to load watchlists.',
  saveFailed: 'Unable to save the watchlist.',
  deleteFailed: 'Unable to delete the watchlist.',
  archiveLoadFailed: 'Unable to load archived alerts.',
  archiveFailed: 'Unable to update the archive.',
  summaryLoadFailed: 'Unable to load your dashboard figures.',
  preferencesLoadFailed: 'Unable to load your notification preferences.',
} as const;

/** Archived page size, auto-archive age, triggered window and spotlight size. */
export const ARCHIVE_PAGE_SIZE = 25;
export const AUTO_ARCHIVE_DAYS = 30;
export const TRIGGERED_WINDOW_HOURS = 24;
export const SPOTLIGHT_SIZE = 3;
/** Statuses the auto-archive takes, once unchanged for AUTO_ARCHIVE_DAYS (docs/product.md, "Statuses"). */
export const autoArchiveStatuses = ['BOOKED', 'PASSED'] as const;

export const quarters = ['Q1', 'Q2', 'Q3', 'Q4'] as const;
export type Quarter = (typeof quarters)[number];

const m = watchlistMessages;
const id = z.string().min(1);

const blankToNull = (v: string | null | undefined) =>
  v === undefined ? undefined : v?.trim() ? v.trim() : null;

const watchlistFields = {
  name: z.string({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(120, m.nameTooLong),
  /** One of the templates' resort codes; blank or null for any resort. */
  resortCode: z.string().max(60).nullable().optional().transform(blankToNull),
  quarter: z.enum(quarters, { error: m.quarterInvalid }).nullable().optional(),
  notes: z.string().max(2000, m.notesTooLong).nullable().optional().transform(blankToNull),
};

export const watchlistCreateInput = z.object(watchlistFields).strict();
export type WatchlistCreateInput = z.infer<typeof watchlistCreateInput>;

export const watchlistUpdateInput = z
  .object({ id, ...watchlistFields, name: watchlistFields.name.optional() })
  .strict();
export type WatchlistUpdateInput = z.infer<typeof watchlistUpdateInput>;

export const watchlistIdInput = z.object({ id });

/** A selection of alerts; the REST contract names the field `registrationIds`. */
const selectedAlertIds = z
  .array(z.string().min(1), { error: m.selectAlerts })
  .min(1, m.selectAlerts)
  .max(500, m.tooManyAlerts);

/** POST /api/watchlists/{id}/registrations: adds the caller's alerts (already members stay). */
export const watchlistAddAlertsInput = z.object({ id, registrationIds: selectedAlertIds });
export const watchlistRemoveAlertInput = z.object({ id, registrationId: id });

export const watchlistStatsSchema = z.object({
  /** Alerts in the watchlist (archived ones not counted). */
  alertCount: z.number().int(),
  /** Of those, how many are FIRING: availability found. */
  availableCount: z.number().int(),
  lastNotifiedAt: z.string().nullable(),
});

export const watchlistSchema = nameApiSchema(
  z.object({
    id: z.string(),
    name: z.string(),
    resortCode: z.string().nullable(),
    quarter: z.enum(quarters).nullable(),
    notes: z.string().nullable(),
    /** Member alerts that are not archived, newest first. */
    registrationIds: z.array(z.string()),
    stats: watchlistStatsSchema,
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  'Watchlist',
  'A watchlist: the alerts of one trip, with stats computed from them.',
);
export type Watchlist = z.infer<typeof watchlistSchema>;

export const watchlistListSchema = z.array(watchlistSchema);
export const watchlistAlertsSchema = z.array(alertSchema);

/* Archive */

export const archiveListInput = z
  .object({
    /** 1-based; REST sends it in the query string. */
    page: z.coerce.number().int().min(1).max(100_000).default(1),
  })
  .optional();
export const archiveSelectionInput = z.object({ registrationIds: selectedAlertIds });

export const archivedAlertSchema = nameApiSchema(
  z.object({
    id: z.string(),
    title: z.string().nullable(),
    templateName: z.string(),
    partyName: z.string().nullable(),
    tags: z.array(z.string()),
    /** The status it had when archived, and will have again when restored. */
    previousStatus: z.enum(alertStatuses),
    archivedAt: z.string(),
    updatedAt: z.string(),
  }),
  'ArchivedAlert',
);
export type ArchivedAlert = z.infer<typeof archivedAlertSchema>;

export const archivePageSchema = nameApiSchema(
  z.object({
    items: z.array(archivedAlertSchema),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  }),
  'ArchivePage',
);
export type ArchivePage = z.infer<typeof archivePageSchema>;

export const archiveResultSchema = z.object({
  /** Ids the call changed; ids already in the wanted state, missing or not the caller's are left out. */
  ids: z.array(z.string()),
});

/* Home and Dashboard */

export const dashboardSummarySchema = nameApiSchema(
  z.object({
    /** ACTIVE or FIRING (both read 'Enabled'). */
    activeAlerts: z.number().int(),
    /** FIRING: their rules matched on the last poll. */
    availableAlerts: z.number().int(),
    /** Alerts that notified within TRIGGERED_WINDOW_HOURS. */
    triggeredLast24h: z.number().int(),
    watchlists: z.number().int(),
    archived: z.number().int(),
    /** BOOKED or PASSED alerts: they move to the archive after AUTO_ARCHIVE_DAYS without changes. */
    readyForAutoArchive: z.number().int(),
    /** Every alert that is not archived, by displayed status; percentages of their total. */
    statusBreakdown: z.array(z.object({ label: z.string(), count: z.number().int(), percent: z.number() })),
    /** Top SPOTLIGHT_SIZE watchlists by available count, then alert count. */
    spotlight: z.array(watchlistSchema.pick({ id: true, name: true, resortCode: true, stats: true })),
  }),
  'DashboardSummary',
  'The Home and Dashboard figures, from the alerts and watchlists of the caller.',
);
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;

/* Notification preferences (Settings) */

export const notificationPreferencesSchema = nameApiSchema(
  z.object({
    push: z.boolean(),
    email: z.boolean(),
    sms: z.boolean(),
    /** Tell the owner when an alert cannot see availability or drifts, and when it works again (default on). */
    healthNotices: z.boolean(),
  }),
  'NotificationPreferences',
);
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const updatePreferencesInput = notificationPreferencesSchema.partial().strict();

/**
 * The channels a new alert uses by default: every active service of the account, except that the
 * e-mail and SMS preferences decide whether the EMAIL and SMS services are among them (push has no
 * channel yet). The server applies it to a create payload that names no services; the alert form
 * preselects the same, so both start from one rule.
 */
export function defaultChannelIds(
  prefs: NotificationPreferences,
  services: readonly { id: string; type: string; isActive: boolean }[],
): string[] {
  const wanted = (type: string) => (type === 'EMAIL' ? prefs.email : type === 'SMS' ? prefs.sms : true);
  return services.filter((s) => s.isActive && wanted(s.type)).map((s) => s.id);
}
