import { generatorSourceMessages } from '@resort/shared';
import { GeneratorInputError } from './generator.ts';

/**
 * Reads room-lookup details out of a booking page or availability API URL. Booking engines spell
 * the same things many ways, so each detail has a list of accepted parameter names.
 */
const aliases = {
  resortCode: [
    'resort',
    'resortcode',
    'resortid',
    'property',
    'propertycode',
    'propertyid',
    'hotel',
    'hotelcode',
  ],
  roomType: ['roomtype', 'roomcode', 'room', 'accommodationtype'],
  checkIn: ['checkin', 'arrival', 'arrivaldate', 'arrive', 'startdate', 'start', 'from', 'datefrom'],
  checkOut: ['checkout', 'departure', 'departuredate', 'depart', 'enddate', 'end', 'to', 'dateto'],
  nights: ['nights', 'los', 'lengthofstay'],
  adults: ['adults', 'numadults', 'adultcount', 'adult'],
  children: ['children', 'numchildren', 'childcount', 'kids', 'child'],
  childAges: ['childages', 'childrenages', 'ages', 'childage', 'kidsages'],
} as const;
export type Detail = keyof typeof aliases;

// Path segments that introduce a resort's slug: /resorts/polynesian-village/rooms.
const resortPathMarkers = new Set(['resorts', 'resort', 'hotels', 'hotel', 'properties', 'property']);

export interface ParsedSource {
  url: URL;
  kind: 'booking-page' | 'api';
  /** For each detail found, the parameter name exactly as the source spelt it and its raw values. */
  params: Partial<Record<Detail, { name: string; values: string[] }>>;
  resortFromPath: string | null;
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

export function parseSourceUrl(raw: string): ParsedSource {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GeneratorInputError(generatorSourceMessages.invalidUrl);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new GeneratorInputError(generatorSourceMessages.invalidUrl);
  }
  if (url.username || url.password) throw new GeneratorInputError(generatorSourceMessages.credentials);

  const params: ParsedSource['params'] = {};
  for (const name of new Set(url.searchParams.keys())) {
    const key = normalise(name);
    const detail = (Object.keys(aliases) as Detail[]).find((d) =>
      (aliases[d] as readonly string[]).includes(key),
    );
    if (!detail || params[detail]) continue;
    params[detail] = { name, values: url.searchParams.getAll(name) };
  }

  const segments = url.pathname.split('/').filter(Boolean);
  const marker = segments.findIndex((s) => resortPathMarkers.has(s.toLowerCase()));
  const slug = marker >= 0 ? segments[marker + 1] : undefined;
  const isApi =
    segments.some((s) => s.toLowerCase() === 'api') ||
    url.hostname.toLowerCase().startsWith('api.') ||
    url.pathname.toLowerCase().endsWith('.json');
  return {
    url,
    kind: isApi ? 'api' : 'booking-page',
    params,
    resortFromPath: slug && !/^(api|rooms?|availability)$/i.test(slug) ? decodeURIComponent(slug) : null,
  };
}

/** YYYY-MM-DD, or MM/DD/YYYY as US booking pages write it; anything else is refused. */
export function parseDate(raw: string): string {
  const text = raw.trim();
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else throw new GeneratorInputError(generatorSourceMessages.invalidDates);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    throw new GeneratorInputError(generatorSourceMessages.invalidDates);
  }
  return date.toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A whole number within bounds, or the party message. */
export function parseCount(raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new GeneratorInputError(generatorSourceMessages.party);
  return n;
}

/** Ages come as `5,7`, `5|7` or repeated parameters. */
export function parseAges(values: string[] | undefined): number[] {
  if (!values) return [];
  return values
    .flatMap((v) => v.split(/[,|;\s]+/))
    .filter((v) => v !== '')
    .map((v) => parseCount(v, 0, 0, 17));
}
