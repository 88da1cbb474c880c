import {
  buildRequest,
  generatorSourceMessages,
  templateCreateInput,
  templateDraftFromSample,
} from '@resort/shared';
import { describe, expect, it } from 'vitest';
import { GeneratorInputError } from './generator.ts';
import { roomAvailabilityGenerator } from './room-availability.ts';

const now = new Date(2027, 0, 10, 12, 0);
const generate = (sourceUrl?: string) => roomAvailabilityGenerator.generate({ sourceUrl, now });

function refusal(sourceUrl: string): string {
  try {
    generate(sourceUrl);
  } catch (error) {
    if (error instanceof GeneratorInputError) return error.message;
    throw error;
  }
  throw new Error(`expected ${sourceUrl} to be refused`);
}

describe('resort room availability generator: booking pages', () => {
  const page =
    'https://book.grand-resort.example/resorts/polynesian-village/rooms?checkIn=2027-03-01&checkOut=2027-03-05&adults=2&children=2&childAges=5,9';

  it('derives a JSON POST to the host availability endpoint with the page details as defaults', () => {
    const sample = generate(page);
    expect(sample.generatorId).toBe('resort-room-availability');
    expect(sample.template).toMatchObject({
      name: 'polynesian-village room availability',
      resortCode: 'polynesian-village',
      targetUrl: 'https://book.grand-resort.example/api/availability/rooms',
      method: 'POST',
      defaultQuery: {},
      defaultBody: {
        resortCode: 'polynesian-village',
        stay: { checkIn: '2027-03-01', checkOut: '2027-03-05' },
        party: { adults: 2, children: 2, childAges: [5, 9] },
      },
    });
    expect(sample.roomLookup).toMatchObject({
      source: 'booking-page',
      checkIn: '2027-03-01',
      checkOut: '2027-03-05',
      nights: 1,
      adults: 2,
      children: 2,
      childAges: [5, 9],
      placement: { checkIn: { target: 'BODY', path: 'stay.checkIn' } },
    });
  });

  it('offers dates, adults, children and child ages (repeatable, counted by children) as override fields', () => {
    const fields = generate(page).template.editableFields ?? [];
    expect(fields.map((f) => [f.path, f.fieldType])).toEqual([
      ['stay.checkIn', 'DATE'],
      ['stay.checkOut', 'DATE'],
      ['party.adults', 'NUMBER'],
      ['party.children', 'NUMBER'],
      ['party.childAges', 'NUMBER'],
    ]);
    expect(fields[4]?.options).toEqual({
      repeatable: true,
      repeatCountField: { target: 'BODY', path: 'party.children' },
    });
  });

  it('answers a sample that the template schema accepts and the editor can apply', () => {
    const sample = generate(page);
    const parsed = templateCreateInput.parse(sample.template);
    expect(parsed.responseWatchPresets?.any.map((p) => p.id)).toEqual([
      'room-available',
      'nightly-price-at-most',
      'rooms-remaining-at-least',
    ]);
    expect(templateDraftFromSample(JSON.parse(JSON.stringify(sample))).ok).toBe(true);
    // The builder sizes the child ages by the children override.
    const built = buildRequest(parsed, {
      overrides: { body: { 'party.children': 1, 'party.childAges': [5, 9] } },
    });
    expect(built.body).toMatchObject({ party: { children: 1, childAges: [5] } });
  });

  it('defaults missing dates to today + 3 days for one night, and reads US dates and nights', () => {
    const plain = generate('https://book.example.com/hotels/beach-club/');
    expect(plain.roomLookup).toMatchObject({
      checkIn: '2027-01-13',
      checkOut: '2027-01-14',
      adults: 2,
      children: 0,
    });
    const us = generate('https://book.example.com/book?resort=BCH&arrival=03/01/2027&nights=4&numAdults=3');
    expect(us.roomLookup).toMatchObject({
      resortCode: 'BCH',
      checkIn: '2027-03-01',
      checkOut: '2027-03-05',
      adults: 3,
    });
  });

  it('answers an example sample without a source URL', () => {
    const sample = generate(undefined);
    expect(sample.roomLookup).toMatchObject({ source: 'example', sourceUrl: null, resortCode: 'EXAMPLE' });
    expect(templateCreateInput.safeParse(sample.template).success).toBe(true);
  });
});

describe('resort room availability generator: availability API URLs', () => {
  it('keeps the API URL and its own parameter names, as QUERY override fields', () => {
    const sample = generate(
      'https://api.resort.example/v2/availability?property=POLY&arrival=2027-03-01&departure=2027-03-04&numAdults=2&numChildren=1&ages=7&currency=USD',
    );
    expect(sample.template).toMatchObject({
      targetUrl: 'https://api.resort.example/v2/availability',
      method: 'GET',
      defaultQuery: {
        property: 'POLY',
        arrival: '2027-03-01',
        departure: '2027-03-04',
        numAdults: 2,
        numChildren: 1,
        ages: '7',
        currency: 'USD',
      },
      defaultBody: null,
    });
    const fields = sample.template.editableFields ?? [];
    expect(fields.map((f) => [f.target, f.path])).toEqual([
      ['QUERY', 'arrival'],
      ['QUERY', 'departure'],
      ['QUERY', 'numAdults'],
      ['QUERY', 'numChildren'],
      ['QUERY', 'ages'],
    ]);
    expect(fields[4]?.options).toEqual({
      repeatable: true,
      repeatCountField: { target: 'QUERY', path: 'numChildren' },
    });
    expect(templateCreateInput.safeParse(sample.template).success).toBe(true);
  });
});

describe('resort room availability generator: source URLs it cannot use', () => {
  it.each([
    ['not a url', generatorSourceMessages.invalidUrl],
    ['ftp://book.example.com/resorts/x', generatorSourceMessages.invalidUrl],
    ['https://user:pw@book.example.com/resorts/x', generatorSourceMessages.credentials],
    ['https://book.example.com/search?checkIn=2027-03-01', generatorSourceMessages.noResort],
    ['https://api.example.com/availability?resort=X', generatorSourceMessages.noDates],
    ['https://book.example.com/resorts/x?checkIn=2027-02-30', generatorSourceMessages.invalidDates],
    [
      'https://book.example.com/resorts/x?checkIn=2027-03-05&checkOut=2027-03-01',
      generatorSourceMessages.datesOrder,
    ],
    ['https://book.example.com/resorts/x?adults=0', generatorSourceMessages.party],
    ['https://book.example.com/resorts/x?children=2&childAges=5', generatorSourceMessages.party],
    ['https://book.example.com/resorts/x?childAges=18', generatorSourceMessages.party],
  ])('refuses %s', (url, message) => {
    expect(refusal(url)).toBe(message);
  });
});
