import { alertStatuses, alertStatusLabel, healthRank } from '@resort/shared';
import type { AlertRecord } from '@/api/contracts.ts';

export const ALL_STATUSES = 'all';

/** Lower-cased text the search box matches: title, template name, id, party name and tags. */
export function searchText(alert: AlertRecord): string {
  return [alert.title, alert.template?.name, alert.id, alert.partyName, ...(alert.tags ?? [])]
    .filter((part): part is string => typeof part === 'string' && part.length > 0)
    .join('\n')
    .toLowerCase();
}

export interface IndexedAlert {
  alert: AlertRecord;
  text: string;
  /** The status chip this alert counts under (ACTIVE and FIRING share 'Enabled'). */
  group: string;
}

/** Failing alerts first, then drifted ones (they cannot be trusted to see rooms), then the rest. */
const seriousRank = (alert: AlertRecord) => Math.min(2, healthRank(alert.activity?.health));

/** The alerts, indexed, failing and drifted ones first (otherwise in the order given). */
export function indexAlerts(alerts: readonly AlertRecord[]): IndexedAlert[] {
  return alerts
    .map((alert) => ({ alert, text: searchText(alert), group: alertStatusLabel(alert.status) }))
    .sort((a, b) => seriousRank(a.alert) - seriousRank(b.alert));
}

export function matchSearch(rows: readonly IndexedAlert[], search: string): IndexedAlert[] {
  const term = search.trim().toLowerCase();
  return term ? rows.filter((row) => row.text.includes(term)) : [...rows];
}

export interface StatusChipOption {
  value: string;
  label: string;
  count: number;
}

const statusOrder = (label: string) => {
  const index = alertStatuses.findIndex((s) => alertStatusLabel(s) === label);
  return index === -1 ? alertStatuses.length : index;
};

/**
 * 'All' plus one chip per status present among all alerts, each counting the alerts that match the
 * search; a chip whose count is zero is shown disabled.
 */
export function statusChipOptions(all: readonly IndexedAlert[], matching: readonly IndexedAlert[]) {
  const present = [...new Set(all.map((row) => row.group))].sort(
    (a, b) => statusOrder(a) - statusOrder(b) || a.localeCompare(b),
  );
  const counts = new Map<string, number>();
  for (const row of matching) counts.set(row.group, (counts.get(row.group) ?? 0) + 1);
  const options: StatusChipOption[] = [{ value: ALL_STATUSES, label: 'All', count: matching.length }];
  for (const group of present) options.push({ value: group, label: group, count: counts.get(group) ?? 0 });
  return options;
}

export function filterByStatus(rows: readonly IndexedAlert[], status: string): IndexedAlert[] {
  return status === ALL_STATUSES ? [...rows] : rows.filter((row) => row.group === status);
}
