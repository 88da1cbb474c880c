import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/types.ts';
import * as repo from './alert-archive.repo.ts';

/** Thrown inside a transaction to roll it back when a change did not reach every asked id. */
const incomplete = Symbol('incomplete');

/**
 * The archive's transitions of the alert row (archive, restore, delete for good, the auto-archive
 * sweep) and the archived list. Only the owner's alerts are reached. A change by ids is all or
 * nothing: it answers null, having changed nothing, unless it reached every asked id.
 */
export function createAlertArchiveService(deps: { db: Database }) {
  const { db } = deps;

  async function allOrNothing(
    ids: string[],
    change: (trx: Transaction<DB>) => Promise<string[]>,
  ): Promise<string[] | null> {
    try {
      return await db.transaction().execute(async (trx) => {
        const changed = await change(trx);
        const missing = new Set(ids);
        for (const id of changed) missing.delete(id);
        if (missing.size > 0) throw incomplete;
        return changed;
      });
    } catch (error) {
      if (error === incomplete) return null;
      throw error;
    }
  }

  return {
    listArchived: (userId: string, offset: number, limit: number) =>
      repo.listArchived(db, userId, offset, limit),

    /** Archives the owner's alerts (an already archived one counts as done). */
    archive: (userId: string, ids: string[]) =>
      allOrNothing(ids, async (trx) => {
        await repo.archiveAlerts(trx, userId, ids);
        return repo.findArchivedIds(trx, userId, ids);
      }),

    /** Puts archived alerts back in the status they had; one that polls is due at `now`. */
    restore: (userId: string, ids: string[], now: Date) =>
      allOrNothing(ids, (trx) => repo.restoreAlerts(trx, userId, ids, now)),

    /** Deletes archived alerts for good, with their notifications. */
    purge: (userId: string, ids: string[]) => allOrNothing(ids, (trx) => repo.purgeAlerts(trx, userId, ids)),

    /** One statement of the auto-archive sweep: at most `limit` BOOKED or PASSED alerts unchanged since `cutoff`. */
    archiveUnchangedSince: (cutoff: Date, limit: number) => repo.archiveUnchangedSince(db, cutoff, limit),
  };
}

export type AlertArchiveService = ReturnType<typeof createAlertArchiveService>;
