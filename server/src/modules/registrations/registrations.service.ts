import {
  type AdminRegistration,
  type AdminUpdateRegistrationInput,
  earliestToday,
  isPolledStatus,
  isStatusOnly,
  registrationMessages as m,
  messages,
  type Registration,
  type RegistrationPayload,
  type RegistrationStatus,
  type RegistrationTestInput,
  type RegistrationTestResult,
  type ValidationIssue,
  validateAgainstTemplate,
  watchConfigSchema,
} from '@resort/shared';
import type { Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { RegistrationsTable } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { createRateLimiter } from '../../lib/rate-limiter.ts';
import { groupLinks, toRegistration } from './registrations.mapper.ts';
import { probeAlert, type SendRequest } from './registrations.probe.ts';
import * as repo from './registrations.repo.ts';

/** Who is acting: an owner reaches only their own alerts; an admin (admin procedures) reaches all. */
export interface Actor {
  userId: string;
  admin: boolean;
}

type FullPayload = Omit<RegistrationPayload, 'templateId'> & { templateId: string };

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
  watchConfig?: unknown;
}): string {
  return canonical([
    v.templateId,
    v.customHeaders ?? {},
    v.customQuery ?? {},
    v.customBody ?? null,
    v.overrides ?? {},
    v.watchConfig ?? null,
  ]);
}

export function createRegistrationService(deps: {
  db: Database;
  clock: Clock;
  /** Sends a built request upstream through the guarded outbound client. */
  send: SendRequest;
  /** Alert tests per user per window: each one is a real upstream call. */
  testLimit?: { limit: number; windowMs: number };
}) {
  const { db, clock } = deps;
  const testLimiter = createRateLimiter(deps.testLimit ?? { limit: 10, windowMs: 60_000 });

  async function load(id: string): Promise<Registration> {
    const row = await repo.findRegistration(db, id);
    if (!row) throw new AppError('NOT_FOUND', m.notFound);
    return toRegistration(row, await repo.listServiceLinks(db, [id]));
  }

  /** Ownership is checked here, next to the query: another user's alert is as missing as none. */
  async function requireReachable(actor: Actor, id: string) {
    const row = await repo.findRegistration(db, id);
    if (!row || (!actor.admin && row.user_id !== actor.userId)) throw new AppError('NOT_FOUND', m.notFound);
    return row;
  }

  async function requireTemplate(templateId: string, allowInactive: boolean) {
    const template = await repo.findTemplateForRegistration(db, templateId);
    if (!template || (!template.is_active && !allowInactive)) {
      throw validationError([{ path: ['templateId'], message: m.templateUnavailable }]);
    }
    return template;
  }

  /** The template checks of SPEC.md §5 and the notification services, both against the owner. */
  async function checkPayload(ownerId: string, payload: FullPayload, template: repo.TemplateForRegistration) {
    const issues = validateAgainstTemplate(
      payload,
      { editableFields: template.editable_fields, responseWatchPresets: template.response_watch_presets },
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

  function storedFields(payload: FullPayload, template: repo.TemplateForRegistration) {
    return {
      template_id: template.id,
      title: payload.title ?? null,
      party_name: payload.partyName ?? null,
      tags: payload.tags ?? [],
      custom_headers: JSON.stringify(payload.customHeaders ?? {}),
      custom_query: JSON.stringify(payload.customQuery ?? {}),
      custom_body: payload.customBody == null ? null : JSON.stringify(payload.customBody),
      overrides: JSON.stringify(payload.overrides ?? {}),
      watch_config: JSON.stringify(payload.watchConfig ?? watchConfigSchema.parse({})),
      polling_interval_seconds:
        payload.pollingIntervalSeconds ?? Math.min(86400, Math.max(5, template.polling_interval_seconds)),
    };
  }

  /**
   * Scheduling on a status change: an alert that starts being polled is due at once; one that stops
   * (BOOKED, PASSED, DISABLED, INACTIVE) keeps no due time.
   */
  function scheduleFor(
    from: string,
    to: RegistrationStatus,
    restart: boolean,
  ): Updateable<RegistrationsTable> {
    if (!isPolledStatus(to)) return { status: to, next_due_at: null, claimed_until: null };
    const patch: Updateable<RegistrationsTable> = { status: to };
    if (!isPolledStatus(from) || restart) patch.next_due_at = clock.now();
    if (to === 'ACTIVE' && from !== 'ACTIVE') patch.consecutive_errors = 0;
    return patch;
  }

  async function listWith(rows: repo.RegistrationView[]): Promise<Registration[]> {
    const links = groupLinks(
      await repo.listServiceLinks(
        db,
        rows.map((r) => r.id),
      ),
    );
    return rows.map((row) => toRegistration(row, links.get(row.id) ?? []));
  }

  return {
    listForUser: async (userId: string) => listWith(await repo.listRegistrations(db, { userId })),

    async listAll(): Promise<AdminRegistration[]> {
      const [rows, stale] = await Promise.all([
        repo.listRegistrations(db),
        repo.findStaleRegistrationIds(db, clock.now()),
      ]);
      return (await listWith(rows)).map((r) => ({ ...r, stale: stale.has(r.id) }));
    },

    async get(actor: Actor, id: string): Promise<Registration> {
      await requireReachable(actor, id);
      return load(id);
    },

    async create(userId: string, payload: RegistrationPayload): Promise<Registration> {
      const template = await requireTemplate(payload.templateId, false);
      const serviceIds = await checkPayload(userId, payload, template);
      const id = await db.transaction().execute(async (trx) => {
        const { id } = await repo.insertRegistration(trx, {
          ...storedFields(payload, template),
          user_id: userId,
          status: 'ACTIVE',
          // First poll right away; the engine spreads later ones by interval.
          next_due_at: clock.now(),
        });
        await repo.replaceServiceLinks(trx, id, serviceIds);
        return id;
      });
      return load(id);
    },

    /** A full payload, or `{status}` alone (the schema decided which statuses the actor may set). */
    async update(actor: Actor, input: AdminUpdateRegistrationInput): Promise<Registration> {
      const row = await requireReachable(actor, input.id);
      if (isStatusOnly(input) && input.status) {
        await repo.updateRegistration(db, row.id, scheduleFor(row.status, input.status, false));
        return load(row.id);
      }
      const payload = input as FullPayload;
      const template = await requireTemplate(payload.templateId, payload.templateId === row.template_id);
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
          watchConfig: row.watch_config,
        });
      const patch: Updateable<RegistrationsTable> = {
        ...fields,
        ...scheduleFor(row.status, (input.status ?? row.status) as RegistrationStatus, restart),
      };
      // New request or rules: the changed/not_changed baseline of the old ones no longer applies.
      if (restart) patch.last_values = null;
      await db.transaction().execute(async (trx) => {
        await repo.updateRegistration(trx, row.id, patch);
        await repo.replaceServiceLinks(trx, row.id, serviceIds);
      });
      return load(row.id);
    },

    /** Runs the prepared payload once (POST /api/registrations/test), rate limited per user. */
    async test(userId: string, input: RegistrationTestInput): Promise<RegistrationTestResult> {
      const wait = testLimiter.retryAfterSeconds(userId);
      if (wait > 0) {
        throw new AppError('TOO_MANY_REQUESTS', messages.common.rateLimited, { retryAfterSeconds: wait });
      }
      testLimiter.hit(userId);
      // An alert kept on a template that was since deactivated can still be tested while it is edited.
      const template = await requireTemplate(input.templateId, true);
      return probeAlert(deps.send, template, input);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const row = await requireReachable(actor, id);
      await repo.deleteRegistration(db, row.id);
    },
  };
}

export type RegistrationService = ReturnType<typeof createRegistrationService>;
