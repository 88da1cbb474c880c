/**
 * Every pg-boss queue the product uses, declared once. Producers and workers import these names;
 * `ensureQueues` creates them at start-up.
 */
export const queues = {
  /** A claimed batch of due alerts to poll (one job per batch, not per poll: DESIGN.md §7). */
  pollBatch: 'poll-batch',
  /** One notification delivery to one channel, retried with backoff. */
  deliver: 'notification-deliver',
  /** Periodic housekeeping: prune poll runs, finished jobs. */
  maintenance: 'maintenance',
} as const;

export type QueueName = (typeof queues)[keyof typeof queues];
