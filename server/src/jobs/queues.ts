import type { Queue } from 'pg-boss';

/**
 * Every pg-boss queue the product uses, declared once. Producers and workers import these names;
 * `ensureQueues` creates them at start-up. Polls are not jobs: each worker claims due alerts from
 * the registrations table itself (docs/decisions.md, "Engine").
 */
export const queues = {
  /** One notification delivery to one channel, retried with backoff. */
  deliver: 'notification-deliver',
  /** Periodic housekeeping: prune poll runs past their retention. */
  maintenance: 'maintenance',
} as const;

export type QueueName = (typeof queues)[keyof typeof queues];

/**
 * Queue options. Deliveries are found by their worker's 0.5 s polling: pg-boss's LISTEN/NOTIFY wake-up
 * would make a notify queue's polling its 30 s backstop, too slow for retries that come due later.
 */
export const queueOptions: Record<QueueName, Omit<Queue, 'name'>> = {
  [queues.deliver]: { notify: false },
  [queues.maintenance]: { retryLimit: 1, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
};
