import { describe, expect, it } from 'vitest';
import {
  adminUpdateAlertInput,
  alertPayloadSchema,
  isStatusOnly,
  alertMessages as m,
  updateAlertInput,
} from './alert.schema.ts';
import { earliestToday, partyRoleOf, validateAgainstTemplate } from './alert-validation.ts';
import { fieldMessages } from './editable-field.schema.ts';
import { stayWindowMessages } from './stay-window.ts';

const rule = { path: 'rooms[*].price', operator: 'lte' as const, value: 300, presetId: 'price' };
const valid = { templateId: 't1', watchConfig: { all: [rule] } };

function firstMessage(
  schema: { safeParse(v: unknown): { error?: { issues: { message: string }[] } } },
  v: unknown,
) {
  return schema.safeParse(v).error?.issues[0]?.message;
}

describe('alertPayloadSchema', () => {
  it('accepts a minimal payload and fills the watch defaults', () => {
    const r = alertPayloadSchema.parse(valid);
    expect(r.watchConfig).toMatchObject({ any: [], notifyOn: 'everyMatch', notifyOnResolved: false });
  });

  it.each([
    [{ ...valid, templateId: '' }, m.templateRequired],
    [{ watchConfig: valid.watchConfig }, m.templateRequired],
    [{ ...valid, title: '  ' }, m.titleEmpty],
    [{ ...valid, partyName: '' }, m.partyNameEmpty],
    [{ ...valid, tags: ['ok', ''] }, m.tagEmpty],
    [{ ...valid, pollingIntervalSeconds: '60' }, m.pollingIntervalNumber],
    [{ ...valid, pollingIntervalSeconds: 4 }, m.pollingIntervalRange],
    [{ ...valid, pollingIntervalSeconds: 86401 }, m.pollingIntervalRange],
    [{ ...valid, pollingIntervalSeconds: 7.5 }, m.pollingIntervalRange],
    [{ ...valid, customQuery: { a: { nested: true } } }, m.queryValueType],
    [{ ...valid, customQuery: { a: [1] } }, m.queryValueType],
    [{ templateId: 't1' }, m.ruleRequired],
    [{ templateId: 't1', watchConfig: { all: [], any: [] } }, m.ruleRequired],
  ])('rejects %j with its message', (payload, message) => {
    expect(firstMessage(alertPayloadSchema, payload)).toBe(message);
  });

  it('accepts string, number and boolean query values and null title', () => {
    const r = alertPayloadSchema.safeParse({
      ...valid,
      title: null,
      customQuery: { a: 'x', b: 2, c: false },
    });
    expect(r.success).toBe(true);
  });
});

describe('update inputs', () => {
  it('takes {status} alone as a status change', () => {
    expect(updateAlertInput.parse({ id: 'r1', status: 'BOOKED' })).toEqual({
      id: 'r1',
      status: 'BOOKED',
    });
    expect(isStatusOnly({ id: 'r1', status: 'BOOKED' })).toBe(true);
    expect(isStatusOnly({ id: 'r1', status: 'BOOKED', title: 'x' })).toBe(false);
  });

  it('lets users set only ACTIVE, BOOKED and PASSED; admins any status', () => {
    expect(firstMessage(updateAlertInput, { id: 'r1', status: 'DISABLED' })).toBe(m.statusNotAllowed);
    expect(adminUpdateAlertInput.safeParse({ id: 'r1', status: 'DISABLED' }).success).toBe(true);
    expect(firstMessage(adminUpdateAlertInput, { id: 'r1', status: 'NOPE' })).toBe(m.statusInvalid);
  });

  it('treats anything else as a full payload', () => {
    expect(firstMessage(updateAlertInput, { id: 'r1', title: 'x' })).toBe(m.templateRequired);
    expect(firstMessage(updateAlertInput, { id: 'r1', templateId: 't1' })).toBe(m.ruleRequired);
    expect(updateAlertInput.safeParse({ id: 'r1', ...valid, status: 'PASSED' }).success).toBe(true);
  });
});

const presets = {
  all: [
    {
      id: 'price',
      label: 'Price drops',
      condition: { path: 'rooms[*].price', operator: 'lte' },
      input: { type: 'number', label: 'Max price', required: true },
    },
    {
      id: 'club',
      label: 'Club level',
      condition: { path: 'club', operator: 'equals' },
      input: { type: 'boolean', label: 'Club' },
    },
  ],
  any: [{ id: 'open', label: 'Open', condition: { path: 'open', operator: 'exists' } }],
};

const fields = [
  { target: 'QUERY', path: 'arrival', label: 'Arrival', fieldType: 'DATE', required: true },
  {
    target: 'QUERY',
    path: 'stayDates',
    label: 'Stay dates',
    fieldType: 'DATE',
    options: { repeatable: true },
  },
  { target: 'BODY', path: 'party.adults', label: 'Adults', fieldType: 'NUMBER', required: true },
  { target: 'BODY', path: 'party.children', label: 'Children', fieldType: 'NUMBER', defaultValue: 0 },
  {
    target: 'BODY',
    path: 'party.childAges',
    label: 'Child ages',
    fieldType: 'NUMBER',
    required: true,
    options: { repeatable: true, repeatCountField: { target: 'BODY', path: 'party.children' } },
  },
  {
    target: 'BODY',
    path: 'roomTypes',
    label: 'Room types',
    fieldType: 'STRING',
    required: true,
    options: { repeatable: true },
  },
  { target: 'HEADERS', path: 'x-club', label: 'Club', fieldType: 'BOOLEAN' },
  {
    target: 'QUERY',
    path: 'view',
    label: 'View',
    fieldType: 'SELECT',
    options: [{ value: 'pool', label: 'Pool' }, 'garden'],
  },
];
const template = { editableFields: fields, responseWatchPresets: presets };
const today = '2030-06-15';

function overrides(patch: { query?: object; body?: object; headers?: object } = {}) {
  return {
    query: { arrival: '2030-07-01', ...patch.query },
    body: { 'party.adults': 2, 'party.childAges': [], roomTypes: ['DLX'], ...patch.body },
    headers: { ...patch.headers },
  };
}

function check(
  patch: Parameters<typeof overrides>[0],
  watchConfig = { all: [{ ...rule, value: 300 }], any: [] },
) {
  const payload = { overrides: overrides(patch), watchConfig } as Parameters<
    typeof validateAgainstTemplate
  >[0];
  return validateAgainstTemplate(payload, template, { today });
}

describe('validateAgainstTemplate', () => {
  it('accepts a complete payload', () => {
    expect(check({})).toEqual([]);
  });

  it('requires required fields', () => {
    expect(check({ query: { arrival: '' } })).toEqual([
      { path: ['overrides', 'query', 'arrival'], message: m.fieldRequired },
    ]);
    expect(check({ body: { 'party.adults': null } })[0]?.message).toBe(m.fieldRequired);
  });

  it('needs an override for a required field even when the field has a default', () => {
    const withDefault = fields.map((f) => (f.path === 'arrival' ? { ...f, defaultValue: '2030-07-01' } : f));
    const payload = { overrides: { body: overrides().body }, watchConfig: { all: [rule], any: [] } };
    expect(validateAgainstTemplate(payload, { ...template, editableFields: withDefault }, { today })).toEqual(
      [{ path: ['overrides', 'query', 'arrival'], message: m.fieldRequired }],
    );
  });

  it('requires at least one value of a repeatable required field', () => {
    expect(check({ body: { roomTypes: ['', null] } })).toEqual([
      { path: ['overrides', 'body', 'roomTypes'], message: m.atLeastOneValue },
    ]);
  });

  it('requires the entries linked to a count field', () => {
    expect(check({ body: { 'party.children': 1, 'party.childAges': [] } })[0]?.message).toBe(
      m.linkedEntry('Children'),
    );
    expect(check({ body: { 'party.children': 3, 'party.childAges': [4, ''] } })[0]?.message).toBe(
      m.linkedEntries(3, 'Children'),
    );
    expect(m.linkedEntries(3, 'Children')).toBe('Provide values for all 3 entries linked to "Children".');
    expect(check({ body: { 'party.children': 2, 'party.childAges': [4, 9] } })).toEqual([]);
  });

  it('refuses dates in the past, single and repeated', () => {
    expect(check({ query: { arrival: '2030-06-14' } })[0]?.message).toBe(m.dateInPast);
    expect(check({ query: { arrival: '2030-06-15' } })).toEqual([]);
    expect(check({ query: { stayDates: ['2030-07-01', '2029-01-01'] } })[0]?.message).toBe(m.datesInPast);
    expect(check({ query: { arrival: '2030-02-30' } })[0]?.message).toBe(m.dateInvalid);
  });

  it('judges the past in the earliest time zone by default', () => {
    expect(earliestToday(new Date('2030-06-15T11:00:00Z'))).toBe('2030-06-14');
    expect(earliestToday(new Date('2030-06-15T13:00:00Z'))).toBe('2030-06-15');
  });

  it('keeps the party within 1–10 adults, 0–10 children, ages 0–17', () => {
    expect(check({ body: { 'party.adults': 0 } })[0]?.message).toBe(m.adultsRange);
    expect(check({ body: { 'party.adults': 11 } })[0]?.message).toBe(m.adultsRange);
    expect(check({ body: { 'party.adults': 1.5 } })[0]?.message).toBe(m.adultsRange);
    expect(check({ body: { 'party.children': 11 } })[0]?.message).toBe(m.childrenRange);
    expect(check({ body: { 'party.children': 1, 'party.childAges': [18] } })[0]?.message).toBe(
      m.childAgeRange,
    );
    expect(check({ body: { 'party.children': 2, 'party.childAges': [0, 17] } })).toEqual([]);
    expect(
      check({ body: { 'party.adults': 10, 'party.children': 10, 'party.childAges': Array(10).fill(5) } }),
    ).toEqual([]);
  });

  it('recognises party fields by the last path segment or the label', () => {
    expect(partyRoleOf({ path: 'guests.adults' })).toBe('adults');
    expect(partyRoleOf({ path: 'party[0].Children' })).toBe('children');
    expect(partyRoleOf({ path: 'child_ages' })).toBe('childAges');
    expect(partyRoleOf({ path: 'numAdults' })).toBe('adults');
    expect(partyRoleOf({ path: 'a', label: 'Child ages' })).toBe('childAges');
    expect(partyRoleOf({ path: 'adultsOnly', label: 'Adults only' })).toBeNull();
  });

  it('types number, boolean and select fields', () => {
    expect(check({ body: { 'party.adults': 'two' } })[0]?.message).toBe(fieldMessages.expectedNumeric);
    expect(check({ headers: { 'x-club': 'maybe' } })[0]?.message).toBe(m.inputBoolean);
    expect(check({ headers: { 'x-club': 'true' } })).toEqual([]);
    expect(check({ query: { view: 'garden' } })).toEqual([]);
    expect(check({ query: { view: 'ocean' } })[0]?.message).toBe(m.selectOption);
    expect(check({ query: { view: ['pool'] } })[0]?.message).toBe(m.singleValue);
  });

  it('refuses overrides of fields the template does not offer', () => {
    expect(check({ body: { secret: 'x' } })).toEqual([
      { path: ['overrides', 'body', 'secret'], message: m.notOverridable },
    ]);
  });

  it('types rule inputs and requires required ones', () => {
    const withValue = (value: unknown, presetId = 'price') => ({
      all: [{ ...rule, presetId, value }],
      any: [],
    });
    expect(check({}, withValue('abc') as never)[0]?.message).toBe(m.inputNumber('Max price'));
    expect(m.inputNumber('Max price')).toBe('Max price: Enter a valid number.');
    expect(check({}, withValue('250') as never)).toEqual([]);
    expect(check({}, withValue('') as never)[0]?.message).toBe('Price drops: Max price is required.');
    expect(check({}, withValue('yes', 'club') as never)[0]?.message).toBe(m.inputBoolean);
    expect(check({}, withValue(false, 'club') as never)).toEqual([]);
    expect(check({}, withValue(1, 'missing') as never)[0]?.message).toBe(m.unknownRule);
  });

  it('accepts rules without a preset and presets without inputs', () => {
    const cfg = { all: [{ path: 'x', operator: 'exists' as const }], any: [{ ...rule, presetId: 'open' }] };
    expect(check({}, cfg as never)).toEqual([]);
  });

  it('calls a template with broken presets misconfigured', () => {
    const payload = { overrides: overrides(), watchConfig: { all: [rule], any: [] } } as never;
    for (const broken of [null, { all: [], any: [] }, { all: [{ id: 'x' }] }]) {
      const issues = validateAgainstTemplate(
        payload,
        { editableFields: fields, responseWatchPresets: broken },
        { today },
      );
      expect(issues[0]).toEqual({ path: ['watchConfig'], message: m.misconfigured });
    }
  });
});

describe('validateAgainstTemplate: stay windows', () => {
  const stay = {
    checkIn: { target: 'QUERY', path: 'arrival' },
    nights: { target: 'BODY', path: 'party.children' },
  };
  const window = { start: '2030-07-01', end: '2030-07-31', minNights: 4, maxNights: 5 };
  const withWindow = (stayWindow: unknown, t: object = { ...template, stay }) =>
    validateAgainstTemplate(
      {
        overrides: overrides({ query: { arrival: '' } }),
        stayWindow,
        watchConfig: { all: [{ ...rule, value: 300 }], any: [] },
      } as Parameters<typeof validateAgainstTemplate>[0],
      t,
      { today },
    );

  it('accepts a window in place of the required check-in', () => {
    expect(withWindow([window])).toEqual([]);
  });

  it('needs a template that declares its stay', () => {
    expect(withWindow([window], template)).toContainEqual({
      path: ['stayWindow'],
      message: stayWindowMessages.templateHasNoStay,
    });
  });

  it('refuses more stays than the cap, naming both', () => {
    const wide = { ...window, end: '2030-09-30', minNights: 1, maxNights: 10 };
    const [issue] = withWindow([wide]);
    expect(issue?.path).toEqual(['stayWindow']);
    expect(issue?.message).toMatch(/^This window means \d+ stays; an alert can watch at most 120\./);
  });

  it('refuses a window already past', () => {
    expect(withWindow([{ ...window, start: '2030-05-01', end: '2030-06-10' }])).toEqual([
      { path: ['stayWindow'], message: stayWindowMessages.noStays },
    ]);
  });
});
