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
  const boss = new PgBoss({
    connectionString: options.connectionString,
    max: 4,
    supervise: options.supervise ?? true,
    schedule: options.supervise ?? true,
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
