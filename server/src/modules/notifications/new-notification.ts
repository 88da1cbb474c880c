/**
 * What a notification says: availability found (MATCH) or gone again (RESOLVED, with
 * notifyOnResolved); or the alert's health: it cannot see (FAILING), its answer changed shape
 * (DRIFTED), or it sees again (RECOVERED) (docs/product.md, "Alert health").
 */
export type NotificationKind = 'MATCH' | 'RESOLVED' | HealthNoticeKind;
export type HealthNoticeKind = 'FAILING' | 'DRIFTED' | 'RECOVERED';

/**
 * A notification to create, the one shape the engine hands over, the write-back reports on and the
 * notifications service and repository store. Its kind is always said: a default would store a
 * resolution as a match.
 */
export interface NewNotification {
  userId: string;
  alertId: string;
  /** One event, one key: a second notification with the same key creates nothing. */
  eventKey: string;
  kind: NotificationKind;
  message: string;
  /**
   * Stored with the notification; the service stamps `timestamp` when it is missing. A grouped
   * notice names its alerts in `alertIds`: it goes to the channels of each of them.
   */
  metadata?: Record<string, unknown>;
}

/** A notification as stored: its metadata present (and stamped). */
export type StampedNotification = NewNotification & { metadata: Record<string, unknown> };
