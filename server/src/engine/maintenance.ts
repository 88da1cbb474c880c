import type { PgBoss } from 'pg-boss';
import { queues } from '../jobs/queues.ts';
import type { AlertPollingService } from '../modules/alerts/alert-polling.service.ts';
import type { Logger } from '../platform/logger.ts';

/**
 * Housekeeping on pg-boss's cron (one job a minute for the whole pool, whichever worker takes it):
 * poll runs older than POLL_RUN_RETENTION_HOURS are deleted.
 */
export async function registerMaintenance(
  boss: PgBoss,
  deps: {
    alertPolling: Pick<AlertPollingService, 'prunePollRuns'>;
    log: Logger;
    config: { POLL_RUN_RETENTION_HOURS: number };
  },
): Promise<void> {
  await boss.schedule(queues.maintenance, '* * * * *');
  await boss.work(queues.maintenance, { pollingIntervalSeconds: 10 }, async () => {
    const pruned = await deps.alertPolling.prunePollRuns(deps.config.POLL_RUN_RETENTION_HOURS);
    if (pruned > 0) deps.log.info({ pruned }, 'maintenance: pruned old poll runs');
  });
}
