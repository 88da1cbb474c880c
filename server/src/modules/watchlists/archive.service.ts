import {
  type AlertStatus,
  ARCHIVE_PAGE_SIZE,
  type ArchivePage,
  AUTO_ARCHIVE_DAYS,
  watchlistMessages as m,
} from '@resort/shared';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { AlertArchiveService } from '../alerts/alert-archive.service.ts';

const DAY_MS = 86_400_000;
/** Rows per statement of the sweep: short locks, however many alerts come due at once. */
const SWEEP_BATCH = 1000;

/**
 * The archive: archive by hand, the auto-archive sweep, the Archived view (25 per page), restore to
 * the previous status, delete for good. Only the owner's alerts are reached; ids that name nothing
 * of theirs answer 404, as a missing alert does everywhere else.
 */
export function createArchiveService(deps: { alerts: AlertArchiveService; clock: Clock }) {
  const { alerts, clock } = deps;

  /** Every id must be one the call can act on, else nothing happens and the answer is 404. */
  function requireAll(done: string[] | null): { ids: string[] } {
    if (done === null) throw new AppError('NOT_FOUND', m.alertNotFound);
    return { ids: done };
  }

  return {
    async list(userId: string, page: number): Promise<ArchivePage> {
      const offset = (page - 1) * ARCHIVE_PAGE_SIZE;
      const { items, total } = await alerts.listArchived(userId, offset, ARCHIVE_PAGE_SIZE);
      return {
        items: items.map((r) => ({
          id: r.id,
          title: r.title,
          templateName: r.template_name,
          partyName: r.party_name,
          tags: r.tags,
          previousStatus: (r.archived_from_status ?? 'INACTIVE') as AlertStatus,
          archivedAt: (r.archived_at ?? r.updated_at).toISOString(),
          updatedAt: r.updated_at.toISOString(),
        })),
        page,
        pageSize: ARCHIVE_PAGE_SIZE,
        total,
      };
    },

    /** Archives the caller's alerts (an already archived one counts as done). */
    archive: async (userId: string, ids: string[]) => requireAll(await alerts.archive(userId, ids)),

    restore: async (userId: string, ids: string[]) =>
      requireAll(await alerts.restore(userId, ids, clock.now())),

    purge: async (userId: string, ids: string[]): Promise<void> => {
      requireAll(await alerts.purge(userId, ids));
    },

    /** The cron's work: BOOKED and PASSED alerts unchanged for AUTO_ARCHIVE_DAYS move to the archive. */
    async sweep(): Promise<number> {
      const cutoff = new Date(clock.now().getTime() - AUTO_ARCHIVE_DAYS * DAY_MS);
      let total = 0;
      for (;;) {
        const n = await alerts.archiveUnchangedSince(cutoff, SWEEP_BATCH);
        total += n;
        if (n < SWEEP_BATCH) return total;
      }
    },
  };
}

export type ArchiveService = ReturnType<typeof createArchiveService>;
