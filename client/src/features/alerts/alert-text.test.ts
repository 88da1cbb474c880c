import { alertListMessages } from '@resort/shared';
import { describe, expect, it } from 'vitest';
import { alertRecord } from './alert-fixtures.ts';
import { alertDatesText, alertDisplayTitle, alertWithParty } from './alert-text.ts';

describe('alert words', () => {
  it("names an alert by its title, else its template's name, else 'Untitled alert'", () => {
    expect(alertDisplayTitle({ title: ' Lagoon week ', template: { name: 'Lagoon resort' } })).toBe(
      'Lagoon week',
    );
    expect(alertDisplayTitle({ title: '  ', template: { name: 'Lagoon resort' } })).toBe('Lagoon resort');
    expect(alertDisplayTitle({ title: null, template: null })).toBe(alertListMessages.untitled);
  });

  it('adds the party when there is one', () => {
    expect(alertWithParty({ title: 'Lagoon week', partyName: 'Okafor family' })).toBe(
      'Lagoon week · Okafor family',
    );
    expect(alertWithParty({ title: 'Lagoon week', partyName: null })).toBe('Lagoon week');
  });

  it("dates an alert by the server's range, else by its own queries", () => {
    const fromServer = alertRecord({ dateRange: { start: '2027-01-02', end: '2027-01-06' } });
    const fromQuery = alertRecord({ customQuery: { startDate: '2027-01-02', endDate: '2027-01-06' } });
    expect(alertDatesText(fromServer)).toContain('4 nights');
    expect(alertDatesText(fromQuery)).toBe(alertDatesText(fromServer));
    expect(alertDatesText(alertRecord({ dateRange: null, customQuery: fromQuery.customQuery }))).not.toBe(
      alertDatesText(fromServer),
    );
  });
});
