import {
  defaultDateValue,
  type EditableField,
  type FieldRef,
  generatorSourceMessages,
  type RoomLookup,
  type TemplateCreateInputRaw,
  type WatchPresetsInput,
} from '@resort/shared';
import { GeneratorInputError, type TemplateGenerator } from './generator.ts';
import {
  addDays,
  type Detail,
  type ParsedSource,
  parseAges,
  parseCount,
  parseDate,
  parseSourceUrl,
} from './source-url.ts';

/**
 * Resort room availability. The upstream contract it assumes (and docs/api.md describes):
 * the lookup answers `{ rooms: [{ roomType, name, available, remaining, nightlyPrice, totalPrice,
 * currency }] }`. From a booking page, the lookup is a JSON POST to `/api/availability/rooms` on the
 * page's host; from an availability API URL, that URL itself with its own parameter names (GET).
 */
const info = {
  id: 'resort-room-availability',
  label: 'Resort room availability',
  description:
    'Paste a resort booking page or availability API URL: dates, party and resort are read from it and become the template defaults and override fields.',
};

export const roomAvailabilityGenerator: TemplateGenerator = {
  ...info,
  generate({ sourceUrl, now }) {
    const source = sourceUrl ? parseSourceUrl(sourceUrl) : null;
    const lookup = readLookup(source, now);
    const built = source?.kind === 'api' ? apiRequest(source, lookup) : bookingRequest(source, lookup);
    const template: TemplateCreateInputRaw = {
      name: `${lookup.resortCode} room availability`,
      description: source
        ? `Room availability for ${lookup.resortCode}, generated from ${source.url.origin}${source.url.pathname}.`
        : 'Example room availability lookup: replace the target URL with the resort’s endpoint.',
      resortCode: lookup.resortCode,
      targetUrl: built.targetUrl,
      method: built.method,
      pollingIntervalSeconds: 60,
      defaultHeaders: { accept: 'application/json' },
      defaultQuery: built.defaultQuery,
      defaultBody: built.defaultBody,
      editableFields: built.fields.map((f, i) => ({ ...f, displayOrder: i })),
      responseWatchPresets: presets,
      isActive: true,
    };
    return {
      generatorId: info.id,
      label: info.label,
      template,
      roomLookup: { ...lookup, placement: built.placement },
    };
  },
};

type Lookup = Omit<RoomLookup, 'placement'>;

function first(source: ParsedSource | null, detail: Detail): string | undefined {
  return source?.params[detail]?.values[0];
}

function readLookup(source: ParsedSource | null, now: Date): Lookup {
  const resortCode = (
    first(source, 'resortCode') ??
    source?.resortFromPath ??
    (source ? '' : 'EXAMPLE')
  ).trim();
  if (!resortCode) throw new GeneratorInputError(generatorSourceMessages.noResort);

  const rawCheckIn = first(source, 'checkIn');
  const rawCheckOut = first(source, 'checkOut');
  const rawNights = first(source, 'nights');
  // An API's own parameter names are what the template must send, so they cannot be guessed.
  if (source?.kind === 'api' && (!rawCheckIn || (!rawCheckOut && !rawNights))) {
    throw new GeneratorInputError(generatorSourceMessages.noDates);
  }
  const checkIn = rawCheckIn ? parseDate(rawCheckIn) : defaultDateValue(now);
  const nights = rawNights ? parseCount(rawNights, 1, 1, 365) : 1;
  const checkOut = rawCheckOut ? parseDate(rawCheckOut) : addDays(checkIn, nights);
  if (checkOut <= checkIn) throw new GeneratorInputError(generatorSourceMessages.datesOrder);

  const adults = parseCount(first(source, 'adults'), 2, 1, 10);
  const childAges = parseAges(source?.params.childAges?.values);
  const children = parseCount(first(source, 'children'), childAges.length, 0, 10);
  if (childAges.length !== children) throw new GeneratorInputError(generatorSourceMessages.party);

  return {
    source: source?.kind ?? 'example',
    sourceUrl: source ? source.url.toString() : null,
    resortCode,
    roomType: first(source, 'roomType')?.trim() || null,
    checkIn,
    checkOut,
    nights,
    adults,
    children,
    childAges,
  };
}

interface BuiltSample {
  targetUrl: string;
  method: 'GET' | 'POST';
  defaultQuery: Record<string, string | number | boolean>;
  defaultBody: TemplateCreateInputRaw['defaultBody'];
  fields: EditableField[];
  placement: Record<string, FieldRef>;
}

const labels = {
  checkIn: 'Check-in date',
  checkOut: 'Check-out date',
  nights: 'Nights',
  adults: 'Adults',
  children: 'Children',
  childAges: 'Child ages',
  roomType: 'Room type',
} as const;

/** A booking page: a JSON POST to the host's availability endpoint with a nested body. */
function bookingRequest(source: ParsedSource | null, lookup: Lookup): BuiltSample {
  const origin = source?.url.origin ?? 'https://resort.example.com';
  const at = (path: string): FieldRef => ({ target: 'BODY', path });
  const placement: Record<string, FieldRef> = {
    resortCode: at('resortCode'),
    checkIn: at('stay.checkIn'),
    checkOut: at('stay.checkOut'),
    adults: at('party.adults'),
    children: at('party.children'),
    childAges: at('party.childAges'),
  };
  const fields: EditableField[] = [
    dateField(placement.checkIn!, labels.checkIn, lookup.checkIn),
    dateField(placement.checkOut!, labels.checkOut, lookup.checkOut),
    ...partyFields(placement, lookup),
  ];
  if (lookup.roomType) {
    placement.roomType = at('roomType');
    fields.push({
      ...placement.roomType,
      label: labels.roomType,
      fieldType: 'STRING',
      defaultValue: lookup.roomType,
    });
  }
  return {
    targetUrl: `${origin}/api/availability/rooms`,
    method: 'POST',
    defaultQuery: {},
    defaultBody: {
      resortCode: lookup.resortCode,
      ...(lookup.roomType ? { roomType: lookup.roomType } : {}),
      stay: { checkIn: lookup.checkIn, checkOut: lookup.checkOut },
      party: { adults: lookup.adults, children: lookup.children, childAges: lookup.childAges },
    },
    fields,
    placement,
  };
}

/** An availability API URL: the same URL (GET), keeping its own parameter names and extra parameters. */
function apiRequest(source: ParsedSource, lookup: Lookup): BuiltSample {
  const values: Record<Detail, string | number> = {
    resortCode: lookup.resortCode,
    roomType: lookup.roomType ?? '',
    checkIn: lookup.checkIn,
    checkOut: lookup.checkOut,
    nights: lookup.nights,
    adults: lookup.adults,
    children: lookup.children,
    childAges: lookup.childAges.join(','),
  };
  const detailOf = new Map(Object.entries(source.params).map(([detail, p]) => [p.name, detail as Detail]));
  const defaultQuery: Record<string, string | number | boolean> = {};
  for (const name of new Set(source.url.searchParams.keys())) {
    const detail = detailOf.get(name);
    defaultQuery[name] = detail ? values[detail] : (source.url.searchParams.get(name) ?? '');
  }
  const placement: Record<string, FieldRef> = {};
  for (const [detail, p] of Object.entries(source.params))
    placement[detail] = { target: 'QUERY', path: p.name };

  const fields: EditableField[] = [];
  if (placement.checkIn) fields.push(dateField(placement.checkIn, labels.checkIn, lookup.checkIn));
  if (placement.checkOut) fields.push(dateField(placement.checkOut, labels.checkOut, lookup.checkOut));
  if (placement.nights) {
    fields.push(numberField(placement.nights, labels.nights, lookup.nights, 'Length of stay in nights.'));
  }
  fields.push(...partyFields(placement, lookup));
  if (placement.roomType && lookup.roomType) {
    fields.push({
      ...placement.roomType,
      label: labels.roomType,
      fieldType: 'STRING',
      defaultValue: lookup.roomType,
    });
  }
  const url = new URL(source.url);
  url.search = '';
  url.hash = '';
  return { targetUrl: url.toString(), method: 'GET', defaultQuery, defaultBody: null, fields, placement };
}

function dateField(ref: FieldRef, label: string, value: string): EditableField {
  return { ...ref, label, fieldType: 'DATE', required: true, defaultValue: value };
}

function numberField(ref: FieldRef, label: string, value: number, description: string): EditableField {
  return { ...ref, label, description, fieldType: 'NUMBER', required: true, defaultValue: value };
}

/** Adults, children and child ages, the last a list sized by the children field. */
function partyFields(placement: Record<string, FieldRef>, lookup: Lookup): EditableField[] {
  const fields: EditableField[] = [];
  if (placement.adults) {
    fields.push(numberField(placement.adults, labels.adults, lookup.adults, 'Adults in the party, 1 to 10.'));
  }
  if (placement.children) {
    fields.push({
      ...numberField(placement.children, labels.children, lookup.children, 'Children in the party, 0 to 10.'),
      required: false,
    });
  }
  if (placement.childAges) {
    fields.push({
      ...placement.childAges,
      label: labels.childAges,
      description: 'One age (0 to 17) for each child.',
      fieldType: 'NUMBER',
      defaultValue: lookup.childAges,
      options: placement.children
        ? { repeatable: true, repeatCountField: placement.children }
        : { repeatable: true },
    });
  }
  return fields;
}

/** Rules on the lookup's answer: a room opens up, the price drops, enough rooms remain. */
const presets: WatchPresetsInput = {
  notifyOn: 'firstMatch',
  groups: [
    { id: 'availability', label: 'Availability' },
    { id: 'price', label: 'Price' },
  ],
  all: [],
  any: [
    {
      id: 'room-available',
      label: 'A room is available',
      group: 'availability',
      condition: { path: 'rooms[*].available', label: 'Room available', operator: 'equals', value: true },
      defaultEnabled: true,
    },
    {
      id: 'nightly-price-at-most',
      label: 'Nightly price at most',
      group: 'price',
      condition: { path: 'rooms[*].nightlyPrice', label: 'Nightly price', operator: 'lte' },
      input: { type: 'number', label: 'Maximum nightly price', required: true },
    },
    {
      id: 'rooms-remaining-at-least',
      label: 'Rooms remaining at least',
      group: 'availability',
      condition: { path: 'rooms[*].remaining', label: 'Rooms remaining', operator: 'gte', value: 1 },
      input: { type: 'number', label: 'Rooms remaining', defaultValue: 1 },
    },
  ],
};
