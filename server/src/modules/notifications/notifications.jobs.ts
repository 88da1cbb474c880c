import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import { fromKysely, type JobInsert, type PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { DB } from '../../db/types.ts';
import { queues } from '../../jobs/queues.ts';
import type { Logger } from '../../lib/logger.ts';

/** One attempt of one delivery. `attempt` (1-based) lets a replayed job see it was already recorded. */
export const deliverJobSchema = z.object({ deliveryId: z.uuid(), attempt: z.number().int().min(1) });
export type DeliverJob = z.infer<typeof deliverJobSchema>;

/**
 * The job of attempt n of a delivery has a fixed id, so a second insert of the same attempt is a
 * no-op in pg-boss (ON CONFLICT DO NOTHING) rather than a second send.
 */
export function deliverJobId(deliveryId: string, attempt: number): string {
  const h = createHash('sha256').update(`deliver:${deliveryId}:${attempt}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * pg-boss's own retries only cover faults of ours (the database gone mid-record, a crashed worker
 * whose job expired); a receiver's failure is recorded and rescheduled by the delivery itself.
 */
export function deliverJobOptions(timeoutMs: number) {
  return {
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    retryDelayMax: 3600,
    // Longer than any send can take (an SMTP exchange has several timed phases), so a live attempt never expires.
    expireInSeconds: Math.ceil((timeoutMs * 5) / 1000) + 30,
    // The delivery row is the record; the finished job is not needed for long.
    deleteAfterSeconds: 24 * 3600,
  } satisfies Omit<JobInsert, 'data' | 'id'>;
}

type Trx = Transaction<DB>;

/** Enqueues first attempts inside the caller's transaction: the jobs exist if and only if the rows commit. */
export async function enqueueFirstAttempts(boss: PgBoss, trx: Trx, deliveryIds: string[], timeoutMs: number) {
  if (deliveryIds.length === 0) return;
  await boss.insert(
    queues.deliver,
    deliveryIds.map((deliveryId) => ({
      id: deliverJobId(deliveryId, 1),
      data: { deliveryId, attempt: 1 } satisfies DeliverJob,
      ...deliverJobOptions(timeoutMs),
    })),
    { db: fromKysely(trx) },
  );
}

export async function enqueueRetry(
  boss: PgBoss,
  trx: Trx,
  job: DeliverJob,
  delaySeconds: number,
  timeoutMs: number,
): Promise<void> {
  await boss.send(queues.deliver, job, {
    id: deliverJobId(job.deliveryId, job.attempt),
    // Relative seconds are added to the database's clock, so app and database clocks need not agree.
    startAfter: Number(delaySeconds.toFixed(3)),
    ...deliverJobOptions(timeoutMs),
    db: fromKysely(trx),
  });
}

/** Runs delivery jobs in this process: `deliver` sends one attempt and records it. */
export async function registerDeliveryWorker(
  boss: PgBoss,
  services: {
    notifications: { deliver(job: DeliverJob): Promise<void> };
    config: { DELIVERY_CONCURRENCY: number };
    log: Logger;
  },
): Promise<string> {
  const { notifications, log } = services;
  return boss.work<unknown>(
    queues.deliver,
    {
      localConcurrency: services.config.DELIVERY_CONCURRENCY,
      // A matching poll should reach the receiver within a second (DESIGN.md §10).
      pollingIntervalSeconds: 0.5,
      batchSize: 1,
    },
    async (jobs) => {
      for (const job of jobs) {
        const parsed = deliverJobSchema.safeParse(job.data);
        if (!parsed.success) {
          log.error({ jobId: job.id, data: job.data }, 'malformed delivery job dropped');
          continue;
        }
        await notifications.deliver(parsed.data);
      }
    },
  );
}
