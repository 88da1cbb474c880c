import type { AlertRecord, TemplateGroupRecord, TemplateRecord } from '@/api/contracts.ts';

/**
 * Test data: two templates in two groups (the first has dates, a party and rules with inputs), an
 * alert to edit, a builder for list alerts, and the account's services.
 */
export const groups: TemplateGroupRecord[] = [
  { id: 'g-deluxe', name: 'Deluxe resorts', description: null, displayOrder: 0, createdAt: '' },
  { id: 'g-value', name: 'Value resorts', description: null, displayOrder: 1, createdAt: '' },
];

const base = {
  description: null,
  templateGroup: null,
  targetUrl: 'https://resort.example.com/api/availability/rooms',
  method: 'POST' as const,
  defaultHeaders: {},
  defaultQuery: {},
  defaultBody: {},
  responseWatchConfig: null,
  isActive: true,
  stay: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

export const poly: TemplateRecord = {
  ...base,
  id: 't-poly',
  name: "Disney's Polynesian Village Resort rooms",
  resortCode: 'POLY',
  templateGroupId: 'g-deluxe',
  pollingIntervalSeconds: 120,
  editableFields: [
    {
      target: 'BODY',
      path: 'stay.checkIn',
      label: 'Check-in date',
      fieldType: 'DATE',
      required: true,
      displayOrder: 0,
    },
    {
      target: 'BODY',
      path: 'party.adults',
      label: 'Adults',
      fieldType: 'NUMBER',
      required: true,
      defaultValue: 2,
      displayOrder: 1,
    },
    {
      target: 'BODY',
      path: 'party.children',
      label: 'Children',
      fieldType: 'NUMBER',
      defaultValue: 0,
      displayOrder: 2,
    },
    {
      target: 'BODY',
      path: 'party.childAges',
      label: 'Child ages',
      fieldType: 'NUMBER',
      required: true,
      options: { repeatable: true, repeatCountField: { target: 'BODY', path: 'party.children' } },
      displayOrder: 3,
    },
    {
      target: 'QUERY',
      path: 'roomType',
      label: 'Room type',
      fieldType: 'SELECT',
      options: [
        { value: 'STD', label: 'Standard' },
        { value: 'DLX', label: 'Deluxe view' },
      ],
      displayOrder: 4,
    },
  ],
  responseWatchPresets: {
    notifyOn: 'everyMatch',
    notifyOnResolved: false,
    debounceSeconds: 0,
    groups: [{ id: 'price', label: 'Price' }],
    all: [
      {
        id: 'max-price',
        label: 'Nightly price at most',
        group: 'price',
        condition: { path: 'rooms[*].nightlyPrice', operator: 'lte' },
        input: { type: 'number', label: 'Threshold', required: true, defaultValue: 400 },
        defaultEnabled: true,
      },
    ],
    any: [
      {
        id: 'available',
        label: 'Any room available',
        condition: { path: 'rooms[*].available', operator: 'equals', value: true },
      },
    ],
  },
};

export const popCentury: TemplateRecord = {
  ...base,
  id: 't-pop',
  name: "Disney's Pop Century Resort rooms",
  resortCode: 'POP',
  templateGroupId: 'g-value',
  pollingIntervalSeconds: 60,
  editableFields: [],
  responseWatchPresets: {
    notifyOn: 'everyMatch',
    notifyOnResolved: false,
    debounceSeconds: 0,
    groups: [],
    all: [{ id: 'open', label: 'Rooms open', condition: { path: 'open', operator: 'equals', value: true } }],
    any: [],
  },
};

export const existingAlert: AlertRecord = {
  id: 'a-1',
  userId: 'u-1',
  status: 'ACTIVE',
  title: 'Anniversary trip',
  templateId: 't-poly',
  template: { name: poly.name, defaultBody: {}, defaultQuery: {}, templateGroupId: 'g-deluxe' },
  partyName: 'Garcia',
  tags: ['anniversary', 'beach'],
  user: { email: 'ana@example.com', name: 'Ana' },
  customHeaders: {},
  customQuery: {},
  customBody: null,
  stayWindow: null,
  stayStates: null,
  overrides: {
    body: { 'stay.checkIn': '2099-07-01', 'party.adults': 3, 'party.children': 1, 'party.childAges': [7] },
    query: { roomType: 'DLX' },
  },
  watchConfig: {
    all: [{ path: 'rooms[*].nightlyPrice', operator: 'lte', value: 350, presetId: 'max-price' }],
    any: [],
    notifyOn: 'firstMatch',
    notifyOnResolved: false,
    debounceSeconds: 0,
  },
  pollingIntervalSeconds: 300,
  urgent: false,
  snoozedUntil: null,
  notificationServices: [
    { notificationServiceId: 's-mail', type: 'EMAIL', label: 'Primary Email Alerts', isActive: true },
  ],
  lastRunAt: null,
  lastNotifiedAt: null,
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

/**
 * An alert as the lists show it: `over` sets what a test is about; the rest is a plain active alert
 * on template `t1` with no dates, services or activity.
 */
export function alertRecord(
  over: Partial<Omit<AlertRecord, 'template'>> & { template?: Partial<AlertRecord['template']> } = {},
): AlertRecord {
  const { template, ...rest } = over;
  return {
    id: 'a-1',
    userId: 'u-1',
    status: 'ACTIVE',
    title: null,
    templateId: 't1',
    partyName: null,
    tags: [],
    user: { email: 'ana@example.com', name: 'Ana' },
    customHeaders: {},
    customQuery: {},
    customBody: null,
    stayWindow: null,
    stayStates: null,
    overrides: {},
    watchConfig: { all: [], any: [], notifyOn: 'everyMatch', notifyOnResolved: false, debounceSeconds: 0 },
    pollingIntervalSeconds: 60,
    urgent: false,
    snoozedUntil: null,
    notificationServices: [],
    lastRunAt: null,
    lastNotifiedAt: null,
    createdAt: '2026-01-02T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    ...rest,
    template: { name: 'Resort', defaultBody: null, defaultQuery: {}, templateGroupId: null, ...template },
  };
}

/** A linked notification service of an alert. */
export const linkedService = (id: string) => ({
  notificationServiceId: id,
  type: 'EMAIL',
  label: null,
  isActive: true,
});

export const services = [
  { id: 's-mail', type: 'EMAIL', label: 'Primary Email Alerts', isActive: true },
  { id: 's-hook', type: 'WEBHOOK', label: 'Team hook', isActive: true },
  { id: 's-old', type: 'SMS', label: 'Old phone', isActive: false },
];

/** An alert's activity with the given health (nothing checked yet otherwise). */
export function activityWithHealth(
  health: NonNullable<AlertRecord['activity']>['health'],
  over: Partial<NonNullable<AlertRecord['activity']>> = {},
): NonNullable<AlertRecord['activity']> {
  return {
    lastCheckedAt: null,
    nextCheckAt: null,
    availabilityChangedAt: null,
    lastError: null,
    lastStatusCode: null,
    consecutiveErrors: 0,
    checkRequestedAt: null,
    health,
    healthCause: null,
    healthSince: null,
    healthWords: health,
    lastSuccessAt: null,
    ...over,
  };
}
