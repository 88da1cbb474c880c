import { PgBoss } from 'pg-boss';
import { queueOptions, queues, retiredQueues } from './queues.ts';

interface BossOptions {
  connectionString: string;
  /** Run pg-boss's maintenance and cron loops in this process. */
  supervise?: boolean;
  log?: { error(obj: object, msg: string): void };
}

/** Starts pg-boss in the application's database (schema `pgboss`) and creates our queues. */
export async function startBoss(options: BossOptions): Promise<PgBoss> {
  // Passed through to pg's pool (pg-boss types leave it out): its connections outlive the minute
  // between pg-boss's own passes, so an idle instance does not open a backend for each of them.
  const pool = { idleTimeoutMillis: 120_000 };
  const boss = new PgBoss({
    ...pool,
    connectionString: options.connectionString,
    max: 4,
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
    // An idle instance stays quiet (docs/decisions.md, "An idle engine sleeps until the next due
    // time"): our schedules are a minute apart at least, so the cron worker fetching the jobs due to
    // send may poll every 30 s (default 5), and no flows are used, whose resolver polls every 5 s.
    // Our jobs expire after 10 minutes and are kept a day, so the 5-minute supervision below is ample.
    cronWorkerIntervalSeconds: 30,
    flowIntervalSeconds: 300,
    // Its own bookkeeping (expiring and deleting our few periodic jobs, queue statistics, the
    // vacuum and index checks) every 5 minutes rather than every minute.
    superviseIntervalSeconds: 300,
    monitorIntervalSeconds: 300,
    queueCacheIntervalSeconds: 300,
    bamIntervalSeconds: 300,
  });
  boss.on('error', (err: unknown) => options.log?.error({ err }, 'pg-boss error'));
  await boss.start();
  await ensureQueues(boss);
  return boss;
}

export async function ensureQueues(boss: PgBoss): Promise<void> {
  for (const name of Object.values(queues)) {
    const existing = await boss.getQueue(name);
    if (!existing) await boss.createQueue(name, queueOptions[name]);
    else await boss.updateQueue(name, queueOptions[name]);
  }
  for (const name of retiredQueues) {
    if (await boss.getQueue(name)) await boss.deleteQueue(name);
  }
}
