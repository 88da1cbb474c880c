import type { Queue } from 'pg-boss';

/**
 * Every pg-boss queue the product uses, declared once. Producers and workers import these names;
 * `ensureQueues` creates them at start-up. Polls are not jobs: each worker claims due alerts from
 * the alerts table itself (docs/decisions.md, "Engine"); nor are deliveries: the delivery workers claim
 * them from the notification_deliveries outbox (docs/decisions.md, "[delivery]").
 */
export const queues = {
  /** Periodic housekeeping: prune poll runs, notifications and live events past their retention. */
  maintenance: 'maintenance',
  /** Hourly: BOOKED and PASSED alerts unchanged for 30 days move to the archive. */
  autoArchive: 'auto-archive',
} as const;

type QueueName = (typeof queues)[keyof typeof queues];

/** Queues of earlier versions, deleted at start-up with any jobs left in them. */
export const retiredQueues = [
  // Deliveries were one job per attempt until migration 0007 made the delivery rows their own outbox;
  // the rows carry every pending attempt, so these jobs are obsolete.
  'notification-deliver',
] as const;

export const queueOptions: Record<QueueName, Omit<Queue, 'name'>> = {
  [queues.maintenance]: { retryLimit: 1, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
  [queues.autoArchive]: { retryLimit: 2, expireInSeconds: 600, deleteAfterSeconds: 24 * 3600 },
};
