import type { Database } from '../../db/database.ts';
import type { Logger } from '../../platform/logger.ts';
import type { NewNotification } from '../notifications/new-notification.ts';
import { lockUntoldHealth, markHealthTold } from './alert-health.repo.ts';
import { buildHealthNotices, toldStateOf } from './health-notices.ts';

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
}) {
  return {
    /** One round: answers how many notices it handed over. */
    async tellChanges(): Promise<number> {
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
    },
  };
}

export type AlertHealthService = ReturnType<typeof createAlertHealthService>;
