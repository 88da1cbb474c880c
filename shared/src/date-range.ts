import { buildRequest, type RequestCustomisation, type RequestTemplate } from './request-builder.ts';

/**
 * The date range an alert shows in the lists (docs/product.md, "Screens and routes"): taken from the first query, in a fixed
 * order, that holds both a start and an end key. No key names are prescribed, so the common
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

/** The order: the alert's own query, its custom query, the template default, the override query. */
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

/** Objects of a JSON body, breadth first (the body itself, then its members), at most `limit`. */
function objectsOf(body: unknown, limit = 200): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const queue: unknown[] = [body];
  while (queue.length > 0 && found.length < limit) {
    const value = queue.shift();
    if (Array.isArray(value)) queue.push(...value);
    else if (value && typeof value === 'object') {
      found.push(value as Record<string, unknown>);
      queue.push(...Object.values(value));
    }
  }
  return found;
}

/**
 * The dates an alert actually polls: the start/end keys rule applied to the request the
 * shared builder built for it (template defaults, then custom values, then overrides, so the
 * alert's own values win), its query first, then the objects of its body, shallowest first.
 */
export function builtRequestDateRange(request: {
  query: Readonly<Record<string, unknown>>;
  body?: unknown;
}): DateRange | null {
  return findDateRange([request.query, ...objectsOf(request.body)]);
}

/** The polled range of an alert; null when no dates are set or its request cannot be built. */
export function alertPolledDateRange(
  template: RequestTemplate,
  customisation: RequestCustomisation,
): DateRange | null {
  try {
    return builtRequestDateRange(buildRequest(template, customisation));
  } catch {
    return null;
  }
}

const formats = new Map<string, { withYear: Intl.DateTimeFormat; noYear: Intl.DateTimeFormat }>();

/** Formatters are costly to build and a list shows many rows: one pair per locale. */
function dayFormats(locale?: string | string[]) {
  const key = String(locale ?? '');
  let pair = formats.get(key);
  if (!pair) {
    pair = {
      withYear: new Intl.DateTimeFormat(locale, {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      }),
      noYear: new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    };
    formats.set(key, pair);
  }
  return pair;
}

const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 86_400_000;

function parseDay(text: string): number | null {
  const m = isoDay.exec(text.slice(0, 10));
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(ms) ? null : ms;
}

/**
 * A range for people, in `locale`: "Jan 2 → Jan 6, 2027 · 4 nights" (the year once when both days
 * share it). Values that are not dates are shown as they are; no range says "No dates set".
 */
export function formatDateRangeForPeople(range: DateRange | null, locale?: string | string[]): string {
  if (!range) return noDatesSet;
  const start = parseDay(range.start);
  const end = parseDay(range.end);
  if (start === null || end === null) return formatDateRange(range);
  const sameYear = new Date(start).getUTCFullYear() === new Date(end).getUTCFullYear();
  const { withYear, noYear } = dayFormats(locale);
  const text = `${(sameYear ? noYear : withYear).format(start)} → ${withYear.format(end)}`;
  const nights = Math.round((end - start) / dayMs);
  if (nights <= 0) return text;
  return `${text} · ${nights} ${nights === 1 ? 'night' : 'nights'}`;
}
