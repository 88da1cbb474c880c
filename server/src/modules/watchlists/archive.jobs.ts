import type { PgBoss } from 'pg-boss';
import { queues } from '../../jobs/queues.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ArchiveService } from './archive.service.ts';

/** Every hour at :17, on pg-boss's cron: one job for the whole pool, whichever worker takes it. */
export const AUTO_ARCHIVE_CRON = '17 * * * *';

/**
 * The auto-archive (docs/product.md, "Statuses"): pg-boss's cron in the application's database sends one job an
 * hour; the handler's sweep is idempotent, so a retried or doubled job archives nothing twice.
 * Answers the pg-boss worker's id (`boss.notifyWorker` takes a job sent now without waiting for
 * the worker's next poll).
 */
export async function registerAutoArchive(
  boss: PgBoss,
  deps: { archive: Pick<ArchiveService, 'sweep'>; log: Logger },
): Promise<string> {
  await boss.schedule(queues.autoArchive, AUTO_ARCHIVE_CRON);
  return boss.work(queues.autoArchive, { pollingIntervalSeconds: 30 }, async () => {
    const archived = await deps.archive.sweep();
    if (archived > 0) deps.log.info({ archived }, 'auto-archive: archived booked and passed alerts');
  });
}
