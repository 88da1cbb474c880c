import type { Database } from '../../db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { NewNotification } from '../notifications/new-notification.ts';
import {
  failStaleAlerts,
  lockUntoldHealth,
  markHealthTold,
  markTemplateHealthTold,
  readTemplateHealth,
  type TemplateHealthRow,
} from './alert-health.repo.ts';
import { buildHealthNotices, buildTemplateNotices, toldStateOf } from './health-notices.ts';

/** One template's health (GET /api/health, the template cards, /metrics). */
export interface TemplateHealth {
  templateId: string;
  templateName: string;
  polled: number;
  failing: number;
  drifted: number;
  degraded: number;
  /** Share of its polled alerts failing, 0 to 1. */
  failingShare: number;
  /** The most frequent cause among its failing and drifted alerts. */
  cause: string | null;
  /** Since when the first of them fails or drifts. */
  since: string | null;
}

/** A template whose alerts fail is the admins' concern from this many polled alerts on, and past half. */
const TEMPLATE_NOTICE_MIN_ALERTS = 3;
const isBroken = (r: TemplateHealthRow) => r.polled >= TEMPLATE_NOTICE_MIN_ALERTS && r.failing * 2 > r.polled;

/** Untold changes handled per round; more wait for the next round. */
const ROUND_LIMIT = 2000;

/**
 * Telling owners about their alerts' health (docs/product.md, "Alert health"): a change waits
 * `delaySeconds`, then the owner's untold changes are told together, one notice per kind and cause
 * (grouped when many alerts changed alike), through the notifications outbox, and recorded as told
 * in the same transaction. The engine's write-back sets the health; this only tells it.
 */
export function createAlertHealthService(deps: {
  db: Database;
  /** The notifications service's create (idempotent per event key). */
  notify: (inputs: NewNotification[]) => Promise<unknown>;
  clock: { now(): Date };
  log: Logger;
  delaySeconds: number;
  /** The enabled admins (the users module's). */
  adminIds: () => Promise<string[]>;
  /** Staleness and template health are read at least this often, even when no owner was told anything. */
  sweepMs: number;
}) {
  let templatesCheckedAt = 0;

  /**
   * Turns alerts without a successful check in three intervals failing; then tells admins of
   * templates most of whose alerts fail (once per episode: `templates.health_told`),
   * and forgets the episode of those that work again. Answers the notices handed over.
   */
  async function checkTemplates(): Promise<number> {
    templatesCheckedAt = Date.now();
    const stale = await failStaleAlerts(deps.db);
    if (stale > 0)
      deps.log.warn({ alerts: stale }, 'alert health: alerts without a successful check are failing');
    const rows = await readTemplateHealth(deps.db);
    const broken = rows.filter((r) => isBroken(r) && !r.told);
    const mended = rows.filter((r) => r.told && !isBroken(r)).map((r) => r.template_id);
    let told = 0;
    if (broken.length > 0) {
      const notices = buildTemplateNotices(broken, await deps.adminIds(), deps.clock.now());
      if (notices.length > 0) await deps.notify(notices);
      await markTemplateHealthTold(
        deps.db,
        broken.map((r) => r.template_id),
        true,
      );
      deps.log.warn({ templates: broken.map((r) => r.template_name) }, 'alert health: templates failing');
      told = notices.length;
    }
    await markTemplateHealthTold(deps.db, mended, false);
    return told;
  }

  /** Owners' untold changes, one round: answers how many notices it handed over. */
  async function tellChanges(): Promise<number> {
    return deps.db.transaction().execute(async (trx) => {
      const rows = await lockUntoldHealth(trx, deps.delaySeconds, ROUND_LIMIT);
      if (rows.length === 0) return 0;
      const notices = buildHealthNotices(rows, deps.clock.now());
      // Another connection: the rows' NO KEY UPDATE lock lets notifications reference them.
      if (notices.length > 0) await deps.notify(notices);
      await markHealthTold(
        trx,
        rows.map((r) => ({ id: r.id, told: toldStateOf(r) })),
      );
      deps.log.info(
        { changes: rows.length, notices: notices.length },
        'alert health: owners told of changes',
      );
      return notices.length;
    });
  }

  return {
    tellChanges,

    /** Per template with polled alerts: counts per health, the dominant cause and since when. */
    async templateHealth(): Promise<TemplateHealth[]> {
      return (await readTemplateHealth(deps.db)).map((r) => ({
        templateId: r.template_id,
        templateName: r.template_name,
        polled: r.polled,
        failing: r.failing,
        drifted: r.drifted,
        degraded: r.degraded,
        failingShare: r.polled === 0 ? 0 : Math.round((r.failing / r.polled) * 1000) / 1000,
        cause: r.cause,
        since: r.since?.toISOString() ?? null,
      }));
    },

    checkTemplates,

    /**
     * The engine's round: owners' changes, then the templates' health (read when owners were told
     * something, else every `sweepMs`). Answers the notices handed over.
     */
    async tellRound(): Promise<number> {
      const owners = await tellChanges();
      const due = owners > 0 || Date.now() - templatesCheckedAt >= deps.sweepMs;
      return owners + (due ? await checkTemplates() : 0);
    },
  };
}

export type AlertHealthService = ReturnType<typeof createAlertHealthService>;
