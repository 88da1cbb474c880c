import { describe, expect, it } from 'vitest';
import {
  alertPolledDateRange,
  builtRequestDateRange,
  deriveAlertDateRange,
  findDateRange,
  formatDateRange,
  formatDateRangeForPeople,
} from './date-range.ts';

describe('deriveAlertDateRange', () => {
  const template = { defaultQuery: { startDate: '2026-01-01', endDate: '2026-01-05' } };

  it('prefers the alert query, then custom, then template default, then overrides', () => {
    const own = { checkIn: '2026-03-01', checkOut: '2026-03-04' };
    const custom = { start_date: '2026-02-01', end_date: '2026-02-03' };
    const overrides = { query: { from: '2026-04-01', to: '2026-04-02' } };
    expect(deriveAlertDateRange({ query: own, customQuery: custom, template, overrides })).toEqual({
      start: '2026-03-01',
      end: '2026-03-04',
    });
    expect(deriveAlertDateRange({ customQuery: custom, template, overrides })?.start).toBe('2026-02-01');
    expect(deriveAlertDateRange({ customQuery: {}, template, overrides })?.start).toBe('2026-01-01');
    expect(deriveAlertDateRange({ template: { defaultQuery: {} }, overrides })?.start).toBe('2026-04-01');
  });

  it('skips a query that holds only a start, or blank values', () => {
    const range = deriveAlertDateRange({
      query: { startDate: '2026-05-01' },
      customQuery: { startDate: ' ', endDate: '' },
      template,
    });
    expect(range).toEqual({ start: '2026-01-01', end: '2026-01-05' });
  });

  it('matches key names without case or separators', () => {
    expect(findDateRange([{ 'Check-In': '2026-07-01', CHECK_OUT: '2026-07-09' }])).toEqual({
      start: '2026-07-01',
      end: '2026-07-09',
    });
  });

  it('answers null when no query has both keys', () => {
    expect(deriveAlertDateRange({ query: null, customQuery: { adults: 2 } })).toBeNull();
  });
});

describe('formatDateRange', () => {
  it('joins start and end with an arrow, or says no dates are set', () => {
    expect(formatDateRange({ start: '2026-01-01', end: '2026-01-05' })).toBe('2026-01-01 → 2026-01-05');
    expect(formatDateRange(null)).toBe('No dates set');
  });
});

describe('alertPolledDateRange: the range of the request the builder builds', () => {
  const base = {
    targetUrl: 'https://resort.example/availability',
    method: 'POST' as const,
    defaultQuery: { startDate: '2026-12-23', endDate: '2026-12-27', adults: 2 },
  };
  const queryFields = [
    { target: 'QUERY' as const, path: 'startDate', label: 'Start', fieldType: 'DATE' as const },
    { target: 'QUERY' as const, path: 'endDate', label: 'End', fieldType: 'DATE' as const },
  ];

  it('uses an override in the query over the template defaults', () => {
    const range = alertPolledDateRange(
      { ...base, editableFields: queryFields },
      { overrides: { query: { startDate: '2027-01-02', endDate: '2027-01-06' } } },
    );
    expect(range).toEqual({ start: '2027-01-02', end: '2027-01-06' });
  });

  it('finds an override written into the body, however deep', () => {
    const range = alertPolledDateRange(
      {
        targetUrl: base.targetUrl,
        method: 'POST',
        defaultBody: { search: { stay: { checkIn: '2026-12-23', checkOut: '2026-12-27' } } },
        editableFields: [
          { target: 'BODY', path: 'search.stay.checkIn', label: 'In', fieldType: 'DATE' },
          { target: 'BODY', path: 'search.stay.checkOut', label: 'Out', fieldType: 'DATE' },
        ],
      },
      { overrides: { body: { 'search.stay.checkIn': '2027-01-02', 'search.stay.checkOut': '2027-01-06' } } },
    );
    expect(range).toEqual({ start: '2027-01-02', end: '2027-01-06' });
  });

  it('uses the custom query over the template defaults', () => {
    const range = alertPolledDateRange(base, {
      customQuery: { startDate: '2027-02-01', endDate: '2027-02-03' },
    });
    expect(range).toEqual({ start: '2027-02-01', end: '2027-02-03' });
  });

  it('falls back to the template defaults, and answers null without dates', () => {
    expect(alertPolledDateRange(base, {})).toEqual({ start: '2026-12-23', end: '2026-12-27' });
    expect(alertPolledDateRange({ ...base, defaultQuery: { adults: 2 } }, {})).toBeNull();
  });

  it('answers null when the request cannot be built', () => {
    expect(alertPolledDateRange({ ...base, targetUrl: 'not a url' }, {})).toBeNull();
  });

  it('prefers the query to the body', () => {
    expect(
      builtRequestDateRange({
        query: { from: '2027-03-01', to: '2027-03-02' },
        body: { from: '2028-01-01', to: '2028-01-02' },
      }),
    ).toEqual({ start: '2027-03-01', end: '2027-03-02' });
  });
});

describe('formatDateRangeForPeople', () => {
  it('shows days, the year once, and the nights', () => {
    expect(formatDateRangeForPeople({ start: '2027-01-02', end: '2027-01-06' }, 'en-US')).toBe(
      'Jan 2 → Jan 6, 2027 · 4 nights',
    );
    expect(formatDateRangeForPeople({ start: '2027-01-02', end: '2027-01-03' }, 'en-US')).toBe(
      'Jan 2 → Jan 3, 2027 · 1 night',
    );
  });

  it('shows both years across a new year, and follows the locale', () => {
    expect(formatDateRangeForPeople({ start: '2026-12-30', end: '2027-01-02' }, 'en-US')).toBe(
      'Dec 30, 2026 → Jan 2, 2027 · 3 nights',
    );
    expect(formatDateRangeForPeople({ start: '2027-01-02', end: '2027-01-06' }, 'de-DE')).toBe(
      '2. Jan. → 6. Jan. 2027 · 4 nights',
    );
  });

  it('keeps values that are not dates, and says when none are set', () => {
    expect(formatDateRangeForPeople({ start: 'soon', end: 'later' }, 'en-US')).toBe('soon → later');
    expect(formatDateRangeForPeople(null, 'en-US')).toBe('No dates set');
  });
});
