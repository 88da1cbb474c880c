import { evaluateWatch } from '@resort/shared';
import { describe, expect, it } from 'vitest';
import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { PollingTemplate } from '../modules/templates/templates.service.ts';
import { matchedBeforeFor, stayMessage, staysToList, type WindowPoll } from './stay-expansion.ts';

const answer = { rooms: [{ name: 'Lagoon View', available: true, remaining: 2, price: 689 }] };
const evaluation = evaluateWatch(
  { all: [{ path: 'rooms[*].price', operator: 'lte', value: 700, label: 'Price' }] },
  answer,
  null,
);
const june10 = {
  stay: { checkIn: '2027-06-10', checkOut: '2027-06-14', nights: 4 },
  evaluation,
  data: answer,
};
const june17 = {
  stay: { checkIn: '2027-06-17', checkOut: '2027-06-21', nights: 4 },
  evaluation,
  data: answer,
};

const poll = (open: (typeof june10)[], newlyOpen: (typeof june10)[]): WindowPoll => ({
  fetched: { ok: false },
  shared: false,
  result: { kind: 'answered', statusCode: 200, evaluation: { ...evaluation, matched: open.length > 0 } },
  open,
  newlyOpen,
});

describe('firstMatch over stays', () => {
  it('counts as matched before unless a stay newly opened', () => {
    expect(matchedBeforeFor(poll([june10], []), true)).toBe(true);
    expect(matchedBeforeFor(poll([june10, june17], [june17]), true)).toBe(false);
    // A match whose notification was not handed over was written back as not matched: notify again.
    expect(matchedBeforeFor(poll([june10], []), false)).toBe(false);
    expect(staysToList(poll([june10], []), 'firstMatch')).toEqual([june10]);
    expect(staysToList(poll([june10, june17], [june17]), 'firstMatch')).toEqual([june17]);
    expect(staysToList(poll([june10, june17], [june17]), 'everyMatch')).toEqual([june10, june17]);
  });
});

describe('stayMessage', () => {
  const alert = {
    id: 'a1',
    template_id: 't1',
    title: 'June (school holiday)',
    party_name: 'The Parkers',
    next_due_at: new Date('2027-01-01T00:00:00Z'),
    overrides: { query: { adults: 3 } },
  } as unknown as ClaimedAlert;
  const template = {
    id: 't1',
    name: 'Lagoon stays',
    updatedAt: new Date(),
    request: {
      targetUrl: 'https://resort.example/availability',
      method: 'GET',
      editableFields: [
        { target: 'QUERY', path: 'adults', label: 'Adults', fieldType: 'NUMBER', defaultValue: 2 },
      ],
    },
    stay: {
      checkIn: { target: 'QUERY', path: 'checkIn' },
      checkOut: { target: 'QUERY', path: 'checkOut' },
      bookingUrl: 'https://resort.example/book?in={checkIn}&n={nights}&adults={adults}',
    },
  } as PollingTemplate;

  it('lists each stay in words with what matched and its booking link, after the usual head', () => {
    const said = stayMessage([june10, june17], alert, template);
    expect(said.message).toBe(
      'Alert "June (school holiday)" matched (Lagoon stays, party The Parkers): ' +
        'Thu Jun 10 → Mon Jun 14, 4 nights: Lagoon View: 2 rooms available at $689 (book: https://resort.example/book?in=2027-06-10&n=4&adults=3) · ' +
        'Thu Jun 17 → Mon Jun 21, 4 nights: Lagoon View: 2 rooms available at $689 (book: https://resort.example/book?in=2027-06-17&n=4&adults=3).',
    );
    expect(said.stays).toEqual([
      { ...june10.stay, bookingUrl: 'https://resort.example/book?in=2027-06-10&n=4&adults=3' },
      { ...june17.stay, bookingUrl: 'https://resort.example/book?in=2027-06-17&n=4&adults=3' },
    ]);
  });
});
