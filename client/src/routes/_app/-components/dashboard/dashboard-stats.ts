import { alertStatusLabel } from '@resort/shared';
import type { AlertRecord } from '../../../../api/contracts.ts';

export const TRIGGERED_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Counts from the user's real alerts (server data). */
export function alertStats(alerts: readonly AlertRecord[], now: number) {
  const active = alerts.filter((a) => a.status === 'ACTIVE' || a.status === 'FIRING').length;
  const available = alerts.filter((a) => a.status === 'FIRING').length;
  const triggered = alerts.filter((a) => {
    const at = a.lastNotifiedAt ? Date.parse(a.lastNotifiedAt) : Number.NaN;
    return Number.isFinite(at) && now - at <= TRIGGERED_WINDOW_MS;
  }).length;
  return { active, available, triggered };
}

export interface BreakdownRow {
  label: string;
  count: number;
  percent: number;
}

/** One bar per displayed status, with its share of all alerts rounded to a whole percent. */
export function statusBreakdown(alerts: readonly AlertRecord[]): BreakdownRow[] {
  const counts = new Map<string, number>();
  for (const alert of alerts) {
    const label = alertStatusLabel(alert.status);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([label, count]) => ({ label, count, percent: Math.round((count / alerts.length) * 100) }));
}
