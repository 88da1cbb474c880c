import type { PgBoss } from 'pg-boss';
import { queues } from '../jobs/queues.ts';
import type { Services } from '../modules/services.ts';

/**
 * Housekeeping (docs/decisions.md, "Retention") on pg-boss's cron: one job a minute for the whole
 * pool, taken by whichever process is free (every process registers it, worker or not). It deletes
 * poll runs past POLL_RUN_RETENTION_HOURS, notifications with their deliveries past
 * NOTIFICATION_RETENTION_DAYS (each alert's latest kept) and live events past a day. Each process
 * also runs it once as it starts, so a pool back from a long stop does not wait for the cron.
 * Answers that first run, for a stop to wait for.
 */
export async function registerMaintenance(
  boss: PgBoss,
  deps: Pick<Services, 'alertPolling' | 'notifications' | 'live' | 'log' | 'config'>,
): Promise<{ firstRun: Promise<void> }> {
  async function run(): Promise<void> {
    const pollRuns = await deps.alertPolling.prunePollRuns(deps.config.POLL_RUN_RETENTION_HOURS);
    const notifications = await deps.notifications.prune(deps.config.NOTIFICATION_RETENTION_DAYS);
    const liveEvents = await deps.live.prune();
    if (pollRuns + notifications + liveEvents > 0) {
      deps.log.info({ pollRuns, notifications, liveEvents }, 'maintenance: pruned past their retention');
    }
  }
  await boss.schedule(queues.maintenance, '* * * * *');
  await boss.work(queues.maintenance, { pollingIntervalSeconds: 30 }, run);
  return { firstRun: run().catch((err) => deps.log.error({ err }, 'maintenance at start-up failed')) };
}
