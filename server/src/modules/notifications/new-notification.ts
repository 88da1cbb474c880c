/**
 * What a notification says: availability found (MATCH) or gone again (RESOLVED, with
 * notifyOnResolved); or the alert's health: it cannot see (FAILING), its answer changed shape
 * (DRIFTED), or it sees again (RECOVERED); or, to admins, most alerts of a template fail
 * (TEMPLATE_FAILING) (docs/product.md, "Alert health").
 */
export type NotificationKind = 'MATCH' | 'RESOLVED' | HealthNoticeKind | 'TEMPLATE_FAILING';
export type HealthNoticeKind = 'FAILING' | 'DRIFTED' | 'RECOVERED';

/**
 * A notification to create, the one shape the engine hands over, the write-back reports on and the
 * notifications service and repository store. Its kind is always said: a default would store a
 * resolution as a match.
 */
export interface NewNotification {
  userId: string;
  /** The alert it is about; null for a notice about no one alert (a template's, to admins). */
  alertId: string | null;
  /** One event, one key: a second notification with the same key creates nothing. */
  eventKey: string;
  kind: NotificationKind;
  message: string;
  /**
   * Stored with the notification; the service stamps `timestamp` when it is missing. A grouped
   * notice names its alerts in `alertIds`: it goes to the channels of each of them. A notice with
   * `allChannels` goes to every active channel of its user (an admin's template notice).
   */
  metadata?: Record<string, unknown>;
}

/** A notification as stored: its metadata present (and stamped). */
export type StampedNotification = NewNotification & { metadata: Record<string, unknown> };
