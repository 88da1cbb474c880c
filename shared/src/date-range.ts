/**
 * The date range an alert shows in the lists (SPEC.md §2): taken from the first query, in a fixed
 * order, that holds both a start and an end key. SPEC.md does not name the keys, so the common
 * spellings of upstream availability APIs are accepted, compared without case or separators.
 */
export const dateRangeStartKeys = [
  'startdate',
  'start',
  'checkin',
  'checkindate',
  'arrival',
  'arrivaldate',
  'fromdate',
  'datefrom',
  'from',
] as const;
export const dateRangeEndKeys = [
  'enddate',
  'end',
  'checkout',
  'checkoutdate',
  'departure',
  'departuredate',
  'todate',
  'dateto',
  'to',
] as const;

export const noDatesSet = 'No dates set';

export interface DateRange {
  start: string;
  end: string;
}

type QuerySource = Readonly<Record<string, unknown>> | null | undefined;

const normalise = (key: string) => key.toLowerCase().replace(/[\s_-]/g, '');

function displayValue(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim().length > 0) return value.trim();
  return null;
}

/** The value of the first key (in the preference order of `names`) that holds a usable value. */
function pick(query: Readonly<Record<string, unknown>>, names: readonly string[]): string | null {
  const byName = new Map<string, unknown>();
  for (const [key, value] of Object.entries(query)) {
    const name = normalise(key);
    if (!byName.has(name)) byName.set(name, value);
  }
  for (const name of names) {
    const value = displayValue(byName.get(name));
    if (value !== null) return value;
  }
  return null;
}

/** The first source holding both a start and an end value (blank values do not count). */
export function findDateRange(sources: readonly QuerySource[]): DateRange | null {
  for (const source of sources) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    const start = pick(source, dateRangeStartKeys);
    const end = pick(source, dateRangeEndKeys);
    if (start !== null && end !== null) return { start, end };
  }
  return null;
}

export interface DateRangeSources {
  query?: QuerySource;
  customQuery?: QuerySource;
  template?: { defaultQuery?: QuerySource } | null;
  overrides?: { query?: QuerySource } | null;
}

/** SPEC.md order: the alert's own query, its custom query, the template default, the override query. */
export function deriveAlertDateRange(alert: DateRangeSources): DateRange | null {
  return findDateRange([
    alert.query,
    alert.customQuery,
    alert.template?.defaultQuery,
    alert.overrides?.query,
  ]);
}

export function formatDateRange(range: DateRange | null): string {
  return range ? `${range.start} → ${range.end}` : noDatesSet;
}
