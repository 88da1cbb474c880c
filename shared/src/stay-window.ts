import { z } from 'zod';
import { type FieldRef, fieldRefSchema, type Overrides } from './editable-field.schema.ts';
import { valuesEqual } from './evaluator.ts';
import { selectPath } from './json-path.ts';

/**
 * Stay windows (docs/product.md, "Stay windows"): a template names the editable fields that carry
 * its stay (check-in, and check-out or a number of nights); an alert may watch one or more windows
 * of stays instead of fixed dates. A window's candidate stays are every check-in from `start` on
 * whose stay, of `minNights` to `maxNights` nights, checks out by `end`, arriving on one of
 * `arrivalWeekdays` (any day when absent), from today on.
 */
export const MAX_STAYS_PER_ALERT = 120;
export const MAX_STAY_WINDOWS = 10;
export const MAX_STAY_NIGHTS = 30;

export const stayWindowMessages = {
  windowRequired: 'Add at least one window of dates.',
  tooManyWindows: `An alert can watch at most ${MAX_STAY_WINDOWS} windows.`,
  dateInvalid: 'Enter a date as YYYY-MM-DD.',
  endBeforeStart: 'The window must end after it starts.',
  nightsRange: `Nights must be whole numbers from 1 to ${MAX_STAY_NIGHTS}.`,
  maxBelowMin: 'The longest stay must be at least as long as the shortest.',
  weekdayInvalid: 'Arrival days are mon, tue, wed, thu, fri, sat or sun.',
  tooManyStays: (count: number, cap: number) =>
    `This window means ${count} stays; an alert can watch at most ${cap}. Narrow the dates, the nights or the arrival days.`,
  noStays: 'This window holds no stay from today on. Move it later or widen it.',
  templateHasNoStay:
    'The chosen template does not say which fields carry the stay, so it cannot watch a window.',
  stayEnd: 'Name the check-out field or the nights field of the stay (one of them).',
  stayFieldType: (label: string, type: string) =>
    `The stay's ${label} field must be a ${type} field of this template.`,
  bookingUrlInvalid: 'The booking link must be an http(s) URL.',
} as const;

export const weekdayNames = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof weekdayNames)[number];

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Days since the epoch of an ISO date, or null when it is not a real calendar day. */
function dayNumber(text: string): number | null {
  const m = ISO_DAY.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return date.getTime() / DAY_MS;
}

const isoOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

const dateSchema = z
  .string({ error: stayWindowMessages.dateInvalid })
  .refine((v) => dayNumber(v) !== null, stayWindowMessages.dateInvalid);
const nightsSchema = z
  .number({ error: stayWindowMessages.nightsRange })
  .int(stayWindowMessages.nightsRange)
  .min(1, stayWindowMessages.nightsRange)
  .max(MAX_STAY_NIGHTS, stayWindowMessages.nightsRange);

export const stayWindowSchema = z
  .object({
    start: dateSchema,
    end: dateSchema,
    minNights: nightsSchema,
    maxNights: nightsSchema,
    arrivalWeekdays: z
      .array(z.enum(weekdayNames, { error: stayWindowMessages.weekdayInvalid }))
      .min(1, stayWindowMessages.weekdayInvalid)
      .max(7)
      .optional(),
  })
  .superRefine((w, ctx) => {
    const start = dayNumber(w.start);
    const end = dayNumber(w.end);
    if (start !== null && end !== null && end <= start) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: stayWindowMessages.endBeforeStart });
    }
    if (w.maxNights < w.minNights) {
      ctx.addIssue({ code: 'custom', path: ['maxNights'], message: stayWindowMessages.maxBelowMin });
    }
  });
export type StayWindow = z.infer<typeof stayWindowSchema>;

/** An alert's `stayWindow`: one or more windows. */
export const stayWindowsSchema = z
  .array(stayWindowSchema)
  .min(1, stayWindowMessages.windowRequired)
  .max(MAX_STAY_WINDOWS, stayWindowMessages.tooManyWindows);

/** One candidate stay. */
export interface Stay {
  checkIn: string;
  checkOut: string;
  nights: number;
}

export const staySchema = z.object({ checkIn: z.string(), checkOut: z.string(), nights: z.number().int() });

/** A stay's identity: check-in and length. */
export const stayKey = (stay: Pick<Stay, 'checkIn' | 'nights'>) => `${stay.checkIn}/${stay.nights}`;

/**
 * The exact candidate stays of the windows from `today` (YYYY-MM-DD) on: ordered by check-in then
 * length, each stay once however many windows hold it.
 */
export function expandStayWindows(windows: readonly StayWindow[], today: string): Stay[] {
  const todayDay = dayNumber(today) ?? 0;
  const seen = new Map<string, Stay>();
  for (const w of windows) {
    const start = dayNumber(w.start);
    const end = dayNumber(w.end);
    if (start === null || end === null) continue;
    const days = w.arrivalWeekdays ? new Set(w.arrivalWeekdays) : null;
    for (let day = Math.max(start, todayDay); day + w.minNights <= end; day++) {
      // 1970-01-01 was a Thursday.
      if (days && !days.has(weekdayNames[(day + 4) % 7]!)) continue;
      for (let n = w.minNights; n <= w.maxNights && day + n <= end; n++) {
        const stay = { checkIn: isoOf(day), checkOut: isoOf(day + n), nights: n };
        seen.set(stayKey(stay), stay);
      }
    }
  }
  return [...seen.values()].sort((a, b) =>
    a.checkIn < b.checkIn ? -1 : a.checkIn > b.checkIn ? 1 : a.nights - b.nights,
  );
}

export const countStays = (windows: readonly StayWindow[], today: string) =>
  expandStayWindows(windows, today).length;

/** Why the windows cannot be watched (too many stays for the cap, or none left), or null. */
export function stayWindowProblem(windows: readonly StayWindow[], today: string): string | null {
  const count = countStays(windows, today);
  if (count === 0) return stayWindowMessages.noStays;
  if (count > MAX_STAYS_PER_ALERT) return stayWindowMessages.tooManyStays(count, MAX_STAYS_PER_ALERT);
  return null;
}

/**
 * Where one answer lists availability per night: the array (a rule path such as `nights` or
 * `data.calendar[*]`), each entry's date field, and the condition that makes a night available
 * (its field equals the value). One request then serves the whole window.
 */
export const perNightSchema = z.object({
  path: z.string().trim().min(1),
  dateField: z.string().trim().min(1),
  availableField: z.string().trim().min(1),
  availableValue: z.union([z.string(), z.number(), z.boolean()]),
});
export type PerNight = z.infer<typeof perNightSchema>;

/** A template's `stay`: the editable fields that carry it, a booking link, a per-night answer. */
export const templateStaySchema = z
  .object({
    checkIn: fieldRefSchema,
    checkOut: fieldRefSchema.optional(),
    nights: fieldRefSchema.optional(),
    /** A link with placeholders: {checkIn}, {checkOut}, {nights} and any party field, e.g. {adults}. */
    bookingUrl: z
      .string()
      .trim()
      .max(2048)
      .refine((v) => /^https?:\/\//i.test(v), stayWindowMessages.bookingUrlInvalid)
      .optional(),
    perNight: perNightSchema.optional(),
  })
  .refine((s) => (s.checkOut === undefined) !== (s.nights === undefined), {
    message: stayWindowMessages.stayEnd,
    path: ['checkOut'],
  });
export type TemplateStay = z.infer<typeof templateStaySchema>;

/** The stored stay of a template, or null when absent or no longer valid. */
export function readTemplateStay(raw: unknown): TemplateStay | null {
  const parsed = templateStaySchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

const bucketOf = { BODY: 'body', QUERY: 'query', HEADERS: 'headers' } as const;

function setOverride(overrides: Overrides, ref: FieldRef, value: string | number): Overrides {
  const key = bucketOf[ref.target];
  return { ...overrides, [key]: { ...overrides[key], [ref.path]: value } };
}

/** The alert's overrides with the stay written into the template's stay fields. */
export function stayOverrides(overrides: Overrides, stay: TemplateStay, s: Stay): Overrides {
  let next = setOverride(overrides, stay.checkIn, s.checkIn);
  if (stay.checkOut) next = setOverride(next, stay.checkOut, s.checkOut);
  if (stay.nights) next = setOverride(next, stay.nights, s.nights);
  return next;
}

/** The stay fields, as `target:path` keys (the alert does not set them itself when it watches a window). */
export function stayFieldKeys(stay: TemplateStay | null): Set<string> {
  if (!stay) return new Set();
  return new Set(
    [stay.checkIn, stay.checkOut, stay.nights]
      .filter((r) => r !== undefined)
      .map((r) => `${r.target}:${r.path}`),
  );
}

/** A booking link: each {name} placeholder replaced by the stay's value or the party value of that name. */
export function bookingLink(
  url: string,
  stay: Stay,
  party: Record<string, string | number | boolean | null | undefined> = {},
): string {
  const values: Record<string, unknown> = { ...party, ...stay };
  return url.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = values[name];
    return v === undefined || v === null ? whole : encodeURIComponent(String(v));
  });
}

/** The candidate stays whose every night the per-night answer lists as available. */
export function openStaysFromNights(candidates: readonly Stay[], data: unknown, perNight: PerNight): Stay[] {
  const available = new Set<number>();
  for (const entry of selectPath(data, perNight.path).flatMap((v) => (Array.isArray(v) ? v : [v]))) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as Record<string, unknown>;
    const date =
      typeof e[perNight.dateField] === 'string' ? (e[perNight.dateField] as string).slice(0, 10) : '';
    const day = dayNumber(date);
    if (day !== null && valuesEqual(e[perNight.availableField], perNight.availableValue)) available.add(day);
  }
  return candidates.filter((s) => {
    const first = dayNumber(s.checkIn)!;
    for (let d = first; d < first + s.nights; d++) if (!available.has(d)) return false;
    return true;
  });
}

// ---- Words -------------------------------------------------------------------------------------

const dayWords = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

const words = (iso: string) => dayWords.format(new Date(`${iso}T00:00:00Z`)).replace(',', '');
const nightsWords = (n: number) => `${n} ${n === 1 ? 'night' : 'nights'}`;

/** "Thu Jun 10 → Mon Jun 14, 4 nights". */
export function describeStay(stay: Stay): string {
  return `${words(stay.checkIn)} → ${words(stay.checkOut)}, ${nightsWords(stay.nights)}`;
}

const capital = (d: Weekday) => d[0]!.toUpperCase() + d.slice(1);

/** "Thu–Sat" for consecutive days, else "Mon, Fri". */
function weekdaysWords(days: readonly Weekday[]): string {
  const order = [...new Set(days)].map((d) => weekdayNames.indexOf(d)).sort((a, b) => a - b);
  const run = order.every((d, i) => i === 0 || d === order[i - 1]! + 1);
  if (run && order.length > 2)
    return `${capital(weekdayNames[order[0]!]!)}–${capital(weekdayNames[order.at(-1)!]!)}`;
  return order.map((d) => capital(weekdayNames[d]!)).join(', ');
}

/** One window for the list row: "Jun 1–30 · 4–5 nights · Thu–Sat"; more windows are counted. */
export function describeStayWindows(windows: readonly StayWindow[]): string {
  const w = windows[0];
  if (!w) return '';
  const start = monthDay.format(new Date(`${w.start}T00:00:00Z`));
  const end = new Date(`${w.end}T00:00:00Z`);
  const sameMonth = w.start.slice(0, 7) === w.end.slice(0, 7);
  const range = `${start}–${sameMonth ? end.getUTCDate() : monthDay.format(end)}`;
  const nights =
    w.minNights === w.maxNights ? nightsWords(w.minNights) : `${w.minNights}–${w.maxNights} nights`;
  const parts = [range, nights];
  if (w.arrivalWeekdays && w.arrivalWeekdays.length < 7) parts.push(weekdaysWords(w.arrivalWeekdays));
  const more = windows.length - 1;
  const tail = more > 0 ? ` (+${more} more window${more === 1 ? '' : 's'})` : '';
  return parts.join(' · ') + tail;
}

// ---- What the engine records -------------------------------------------------------------------

/** A stay's state from the latest results: open, not open, or not checked yet. */
export const stayStates = ['open', 'closed', 'unchecked'] as const;
export type StayState = (typeof stayStates)[number];

export const stayStatesSchema = z.object({
  checkedAt: z.string(),
  stays: z.array(staySchema.extend({ state: z.enum(stayStates) })),
});
export type StayStates = z.infer<typeof stayStatesSchema>;

/** Where a window alert's kept values hold its stays' states (beside the rules' kept values). */
export const STAY_STATES_KEY = '$stays';

/** The stays' states kept in an alert's last values, or null (fixed dates, or not polled yet). */
export function readStayStates(lastValues: unknown): StayStates | null {
  if (!lastValues || typeof lastValues !== 'object') return null;
  const parsed = stayStatesSchema.safeParse((lastValues as Record<string, unknown>)[STAY_STATES_KEY]);
  return parsed.success ? parsed.data : null;
}
