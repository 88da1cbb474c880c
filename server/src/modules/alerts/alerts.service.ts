import {
  type AdminAlertRow,
  type AdminUpdateAlertInput,
  type Alert,
  type AlertPayload,
  type AlertRow,
  type AlertStatus,
  type AlertTestInput,
  type AlertTestResult,
  type CheckNowResult,
  checkNowIntervalSeconds,
  clampPollingInterval,
  earliestToday,
  isPolledStatus,
  isStatusOnly,
  alertMessages as m,
  messages,
  type SnoozeAlertInput,
  type ValidationIssue,
  validateAgainstTemplate,
  watchConfigSchema,
} from '@resort/shared';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { databaseNow } from '../../db/now.ts';
import type { DB } from '../../db/types.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import { type RateLimiterFactory, reserveAll } from '../../platform/rate-limiter.ts';
import { findStaleAlertIds } from './alert-polling.repo.ts';
import { runAlertTest, type SendRequest } from './alert-test-run.ts';
import { groupLinks, toAlert, toAlertRow } from './alerts.mapper.ts';
import * as repo from './alerts.repo.ts';

/** Who is acting: an owner reaches only their own alerts; an admin (admin procedures) reaches all. */
export interface Actor {
  userId: string;
  admin: boolean;
}

type FullPayload = Omit<AlertPayload, 'templateId'> & { templateId: string };

function validationError(issues: ValidationIssue[]): AppError {
  return new AppError('BAD_REQUEST', issues[0]?.message ?? m.requiredSummary, {
    issues: issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

/** JSON with sorted keys: jsonb reorders keys, so stored and submitted values compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** What shapes the upstream request and its evaluation; a change restarts the alert's baseline. */
function pollingShape(v: {
  templateId: string;
  customHeaders?: unknown;
  customQuery?: unknown;
  customBody?: unknown;
  overrides?: unknown;
  stayWindow?: unknown;
  watchConfig?: unknown;
}): string {
  return canonical([
    v.templateId,
    v.customHeaders ?? {},
    v.customQuery ?? {},
    v.customBody ?? null,
    v.overrides ?? {},
    v.watchConfig ?? null,
    v.stayWindow ?? null,
  ]);
}

export type { AlertCounts } from './alerts.repo.ts';

export function createAlertService(deps: {
  db: Database;
  clock: Clock;
  /** Sends a built request upstream through the guarded outbound client. */
  send: SendRequest;
  /** The user's default channels, used when a create payload names no notification services. */
  defaultServiceIds?: (userId: string) => Promise<string[]>;
  /** Shared rate limits (alert tests per user per minute: each one is a real upstream call). */
  rateLimits: RateLimiterFactory;
}) {
  const { db, clock } = deps;
  const testLimiter = deps.rateLimits({ name: 'alert-test', points: 10, windowSeconds: 60 });

  async function load(id: string): Promise<Alert> {
    const row = await repo.findAlert(db, id);
    if (!row) throw new AppError('NOT_FOUND', m.notFound);
    return toAlert(row, await repo.listServiceLinks(db, [id]));
  }

  /** Ownership is checked here, next to the query: another user's alert is as missing as none. */
  async function requireReachable(actor: Actor, id: string) {
    const row = await repo.findAlert(db, id);
    if (!row || (!actor.admin && row.user_id !== actor.userId)) throw new AppError('NOT_FOUND', m.notFound);
    return row;
  }

  async function requireTemplate(templateId: string, allowInactive: boolean) {
    const template = await repo.findTemplateForAlert(db, templateId);
    if (!template || (!template.is_active && !allowInactive)) {
      throw validationError([{ path: ['templateId'], message: m.templateUnavailable }]);
    }
    return template;
  }

  /** The template checks (docs/product.md, "Validation and messages") and the notification services, both against the owner. */
  async function checkPayload(ownerId: string, payload: FullPayload, template: repo.TemplateForAlert) {
    const issues = validateAgainstTemplate(
      payload,
      {
        editableFields: template.editable_fields,
        responseWatchPresets: template.response_watch_presets,
        stay: template.stay,
      },
      { today: earliestToday(clock.now()) },
    );
    const serviceIds = [...new Set(payload.notificationServiceIds ?? [])];
    const owned = await repo.findActiveServiceIds(db, ownerId, serviceIds);
    if (serviceIds.some((id) => !owned.has(id))) {
      issues.push({ path: ['notificationServiceIds'], message: m.serviceNotAvailable });
    }
    if (issues.length > 0) throw validationError(issues);
    return serviceIds;
  }

  function storedFields(payload: FullPayload, template: repo.TemplateForAlert) {
    return {
      template_id: template.id,
      title: payload.title ?? null,
      party_name: payload.partyName ?? null,
      tags: payload.tags ?? [],
      custom_headers: JSON.stringify(payload.customHeaders ?? {}),
      custom_query: JSON.stringify(payload.customQuery ?? {}),
      custom_body: payload.customBody == null ? null : JSON.stringify(payload.customBody),
      overrides: JSON.stringify(payload.overrides ?? {}),
      stay_window: payload.stayWindow ? JSON.stringify(payload.stayWindow) : null,
      watch_config: JSON.stringify(payload.watchConfig ?? watchConfigSchema.parse({})),
      polling_interval_seconds:
        payload.pollingIntervalSeconds ?? clampPollingInterval(template.polling_interval_seconds),
      urgent: payload.urgent ?? false,
    };
  }

  /**
   * Scheduling on a status change: an alert that starts being polled is due at once; one that stops
   * (BOOKED, PASSED, DISABLED, INACTIVE) keeps no due time.
   */
  function scheduleFor(from: string, to: AlertStatus, restart: boolean): repo.AlertPatch {
    if (!isPolledStatus(to)) return { status: to, next_due_at: null, claimed_until: null };
    const patch: repo.AlertPatch = { status: to };
    if (!isPolledStatus(from) || restart) patch.next_due_at = databaseNow;
    if (to === 'ACTIVE' && from !== 'ACTIVE') patch.consecutive_errors = 0;
    return patch;
  }

  async function listWith(rows: repo.AlertView[]): Promise<AlertRow[]> {
    const links = groupLinks(
      await repo.listServiceLinks(
        db,
        rows.map((r) => r.id),
      ),
    );
    return rows.map((row) => toAlertRow(row, links.get(row.id) ?? []));
  }

  return {
    listForUser: async (userId: string) => listWith(await repo.listAlerts(db, { userId })),

    /** Which of `ids` are the user's alerts (archived ones included). */
    ownedIds: (userId: string, ids: string[]) => repo.findOwnedAlertIds(db, userId, ids),
    /** The user's alerts per status, with how many notified since `since`. */
    countByStatus: (userId: string, since: Date) => repo.countAlertsByStatus(db, userId, since),
    /** A disabled account's alerts stop polling and resume when it is enabled (in the caller's transaction). */
    suspendOwned: (userId: string, trx: Transaction<DB>) => repo.suspendOwnedAlerts(trx, userId),
    resumeOwned: (userId: string, trx: Transaction<DB>) => repo.resumeOwnedAlerts(trx, userId),
    /** How many alerts (of anyone, archived included) are built on the template. */
    countUsingTemplate: (templateId: string) => repo.countAlertsUsingTemplate(db, templateId),

    async listAll(): Promise<AdminAlertRow[]> {
      const [rows, stale] = await Promise.all([repo.listAlerts(db), findStaleAlertIds(db, clock.now())]);
      return (await listWith(rows)).map((r) => ({ ...r, stale: stale.has(r.id) }));
    },

    /** One alert as an admin list row (owner, staleness, dates, activity), for the alert page. */
    async getRow(actor: Actor, id: string): Promise<AdminAlertRow> {
      const row = await requireReachable(actor, id);
      const [links, stale] = await Promise.all([
        repo.listServiceLinks(db, [id]),
        findStaleAlertIds(db, clock.now(), [id]),
      ]);
      return { ...toAlertRow(row, links), stale: stale.has(id) };
    },

    /** "Check now": the engine polls the alert at once through its usual path, and records it. */
    async requestCheck(actor: Actor, id: string): Promise<CheckNowResult> {
      const row = await requireReachable(actor, id);
      const result = await repo.requestCheck(db, row.id, checkNowIntervalSeconds);
      if (result.ok) {
        const next = new Date(result.requestedAt.getTime() + checkNowIntervalSeconds * 1000);
        return { dueAt: result.dueAt.toISOString(), checkAvailableAt: next.toISOString() };
      }
      if (result.reason === 'not_polled') throw new AppError('CONFLICT', m.checkNotPolled);
      const wait = Math.max(1, Math.ceil((result.availableAt.getTime() - clock.now().getTime()) / 1000));
      throw new AppError('TOO_MANY_REQUESTS', m.checkTooSoon(wait), { retryAfterSeconds: wait });
    },

    /** Holds back the alert's notifications until `until` (null: wakes it); its polling goes on. */
    async snooze(actor: Actor, input: SnoozeAlertInput): Promise<Alert> {
      const row = await requireReachable(actor, input.id);
      const until = input.until === null ? null : new Date(input.until);
      if (until && until.getTime() <= clock.now().getTime())
        throw validationError([{ path: ['until'], message: m.snoozeInPast }]);
      await repo.setSnooze(db, row.id, until);
      return load(row.id);
    },

    async get(actor: Actor, id: string): Promise<Alert> {
      await requireReachable(actor, id);
      return load(id);
    },

    async create(userId: string, input: AlertPayload): Promise<Alert> {
      const payload =
        input.notificationServiceIds === undefined && deps.defaultServiceIds
          ? { ...input, notificationServiceIds: await deps.defaultServiceIds(userId) }
          : input;
      const template = await requireTemplate(payload.templateId, false);
      const serviceIds = await checkPayload(userId, payload, template);
      const id = await db.transaction().execute(async (trx) => {
        const { id } = await repo.insertAlert(trx, {
          ...storedFields(payload, template),
          user_id: userId,
          status: 'ACTIVE',
          // First poll right away (on the engine's clock, the database's); the engine spreads later
          // ones by interval.
          next_due_at: databaseNow,
        });
        await repo.replaceServiceLinks(trx, id, serviceIds);
        return id;
      });
      return load(id);
    },

    /** A full payload, or `{status}` alone (the schema decided which statuses the actor may set). */
    async update(actor: Actor, input: AdminUpdateAlertInput): Promise<Alert> {
      const row = await requireReachable(actor, input.id);
      if (isStatusOnly(input) && input.status) {
        await repo.updateAlert(db, row.id, scheduleFor(row.status, input.status, false));
        return load(row.id);
      }
      const payload = input as FullPayload;
      // A planner may not build on an inactive template, even the alert's own (its request would be
      // sent with the template's defaults); an admin may keep an alert on one.
      const template = await requireTemplate(payload.templateId, actor.admin);
      const serviceIds = await checkPayload(row.user_id, payload, template);
      const fields = storedFields(payload, template);
      const restart =
        pollingShape(payload) !==
        pollingShape({
          templateId: row.template_id,
          customHeaders: row.custom_headers,
          customQuery: row.custom_query,
          customBody: row.custom_body,
          overrides: row.overrides,
          stayWindow: row.stay_window,
          watchConfig: row.watch_config,
        });
      const patch: repo.AlertPatch = {
        ...fields,
        ...scheduleFor(row.status, (input.status ?? row.status) as AlertStatus, restart),
      };
      // New request or rules: the alert starts over. The old request's match state and its
      // changed/not_changed baseline no longer apply, so its first match on the new one notifies.
      if (restart) {
        patch.last_values = null;
        patch.last_matched = false;
        if (patch.status === 'FIRING') patch.status = 'ACTIVE';
      }
      await db.transaction().execute(async (trx) => {
        await repo.updateAlert(trx, row.id, patch);
        await repo.replaceServiceLinks(trx, row.id, serviceIds);
      });
      return load(row.id);
    },

    /** Runs the prepared payload once (POST /api/registrations/test), rate limited per user. */
    async test(userId: string, input: AlertTestInput): Promise<AlertTestResult> {
      await reserveAll([[testLimiter, userId]], messages.common.rateLimited);
      // An inactive template is unreachable to planners: its request (and secret default headers)
      // is never sent on their behalf, as the template itself answers them 404.
      const template = await requireTemplate(input.templateId, false);
      return runAlertTest(deps.send, template, input);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const row = await requireReachable(actor, id);
      await repo.deleteAlert(db, row.id);
    },
  };
}

export type AlertService = ReturnType<typeof createAlertService>;
