import {
  alertListMessages,
  deriveAlertDateRange,
  describeStayWindows,
  formatDateRangeForPeople,
} from '@resort/shared';
import type { AlertRecord } from '@/api/contracts.ts';

/** What names an alert: its own title and its template's name. */
type Named = { title?: string | null; template?: { name?: string | null } | null };

/**
 * An alert's name in every screen: its title, else its template's name, else 'Untitled alert'
 * (docs/product.md, "Screens and routes").
 */
export function alertDisplayTitle(alert: Named): string {
  return alert.title?.trim() || alert.template?.name?.trim() || alertListMessages.untitled;
}

/** "{name} · {party}", as the Home board and the watchlists list an alert. */
export function alertWithParty(alert: Named & { partyName?: string | null }): string {
  return [alertDisplayTitle(alert), alert.partyName].filter(Boolean).join(' · ');
}

/**
 * The dates the alert polls, for people ("Jan 2 → Jan 6, 2027 · 4 nights", or a window's summary): the server's range from
 * the built request, or (a read without it) the date-range rule over the alert's queries
 * (docs/product.md, "Alerts, templates and other entities").
 */
export function alertDatesText(alert: AlertRecord): string {
  // Flexible dates: the window in words ("Jun 1–30 · 4–5 nights · Thu–Sat").
  if (alert.stayWindow && alert.stayWindow.length > 0) return describeStayWindows(alert.stayWindow);
  const range = alert.dateRange !== undefined ? alert.dateRange : deriveAlertDateRange(alert);
  return formatDateRangeForPeople(range, typeof navigator === 'undefined' ? undefined : navigator.language);
}
