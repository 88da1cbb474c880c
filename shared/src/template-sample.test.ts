import { describe, expect, it } from 'vitest';
import { generatorMessages } from './rule-generation.ts';
import {
  classifyValue,
  defaultDateValue,
  deriveOverrideFields,
  type RoomLookup,
  templateDraftFromSample,
} from './template-sample.ts';

const roomLookup: RoomLookup = {
  source: 'example',
  sourceUrl: null,
  resortCode: 'POLY',
  roomType: null,
  checkIn: '2027-01-01',
  checkOut: '2027-01-04',
  nights: 3,
  adults: 2,
  children: 0,
  childAges: [],
  placement: {},
};
const rule = { id: 'r1', label: 'Rooms', condition: { path: 'rooms', operator: 'exists' as const } };

describe('templateDraftFromSample', () => {
  it('answers each generator message in turn', () => {
    expect(templateDraftFromSample(undefined)).toEqual({
      ok: false,
      message: generatorMessages.selectTemplate,
    });
    expect(templateDraftFromSample('text')).toEqual({
      ok: false,
      message: generatorMessages.sampleNotObject,
    });
    expect(templateDraftFromSample({ template: [] })).toEqual({
      ok: false,
      message: generatorMessages.sampleNotObject,
    });
    expect(templateDraftFromSample({ template: {} })).toEqual({
      ok: false,
      message: generatorMessages.sampleMissingRoomLookup,
    });
    expect(
      templateDraftFromSample({ template: { responseWatchPresets: { all: [], any: [] } }, roomLookup }),
    ).toEqual({ ok: false, message: generatorMessages.noAlertsFromSample });
  });

  it('hands back the template and its room lookup details', () => {
    const template = { name: 'T', responseWatchPresets: { any: [rule] } };
    expect(templateDraftFromSample({ template, roomLookup })).toEqual({ ok: true, template, roomLookup });
  });
});

describe('classifyValue', () => {
  it('classifies typed values as NUMBER, BOOLEAN, DATE or STRING', () => {
    expect([2, '2.5', true, 'false', '2027-03-01', 'POLY', '', null].map(classifyValue)).toEqual([
      'NUMBER',
      'NUMBER',
      'BOOLEAN',
      'BOOLEAN',
      'DATE',
      'STRING',
      'STRING',
      'STRING',
    ]);
  });
});

describe('defaultDateValue', () => {
  it('is today plus 3 days, across a month end', () => {
    expect(defaultDateValue(new Date(2027, 0, 30, 23, 30))).toBe('2027-02-02');
  });
});

describe('deriveOverrideFields', () => {
  it('offers one field per scalar query value and body leaf, lists as repeatable fields', () => {
    const result = deriveOverrideFields({
      defaultQuery: { currency: 'USD', page: 1 },
      defaultBody: {
        stay: { checkIn: '2027-01-01' },
        party: { adults: 2, childAges: [5, 7] },
        rooms: [{ a: 1 }],
      },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.fields.map((f) => [f.target, f.path, f.fieldType])).toEqual([
      ['QUERY', 'currency', 'STRING'],
      ['QUERY', 'page', 'NUMBER'],
      ['BODY', 'stay.checkIn', 'DATE'],
      ['BODY', 'party.adults', 'NUMBER'],
      ['BODY', 'party.childAges', 'NUMBER'],
    ]);
    expect(result.fields[4]).toMatchObject({ options: { repeatable: true }, defaultValue: [5, 7] });
    expect(result.fields[2]).toMatchObject({ label: 'Stay check in', defaultValue: '2027-01-01' });
  });

  it('skips fields the template already has, and says so when nothing is left', () => {
    const existing = [{ target: 'QUERY' as const, path: 'page' }];
    const result = deriveOverrideFields({ defaultQuery: { page: 1 }, editableFields: existing });
    expect(result).toEqual({ ok: false, message: generatorMessages.noOverrideFields });
    expect(deriveOverrideFields({})).toEqual({ ok: false, message: generatorMessages.noOverrideFields });
  });
});
