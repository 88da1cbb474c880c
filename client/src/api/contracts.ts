import type { AlertActivity, DateRange, NotificationService, Registration, User } from '@resort/shared';

/**
 * Client-side views of the API's shapes. The alert lists read only these fields of an alert, so a
 * `Registration` (own list) and an `AdminRegistration` (admin list) both fit, and component tests
 * can build alerts with just what a list shows.
 */
type QueryMap = Record<string, unknown>;

export interface AlertRecord {
  id: string;
  status: string;
  title?: string | null;
  templateId: string;
  template?: { name: string; defaultQuery?: QueryMap | null } | null;
  partyName?: string | null;
  tags?: readonly string[] | null;
  user?: { email: string; name: string | null } | null;
  /** SPEC.md names the alert's own query first in the date-range order; the API may add it. */
  query?: QueryMap | null;
  customQuery?: QueryMap | null;
  overrides?: { query?: QueryMap | null } | null;
  notificationServices?: readonly unknown[] | null;
  lastNotifiedAt?: string | null;
  /** The dates the alert polls (from the server's built request); absent in older answers. */
  dateRange?: DateRange | null;
  activity?: AlertActivity;
}

/**
 * GET /users/me. The users module types its two lists loosely (they come from other modules); these
 * are the shapes those modules answer.
 */
export interface UserSummary {
  user: User;
  notificationServices: NotificationService[];
  registrations: Registration[];
}
