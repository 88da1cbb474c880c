/** What a notification says: availability found (MATCH) or gone again (RESOLVED, with notifyOnResolved). */
export type NotificationKind = 'MATCH' | 'RESOLVED';

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
  /** Stored with the notification; the service stamps `timestamp` when it is missing. */
  metadata?: Record<string, unknown>;
}

/** A notification as stored: its metadata present (and stamped). */
export type StampedNotification = NewNotification & { metadata: Record<string, unknown> };
