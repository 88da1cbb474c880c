import { describe, expect, it } from 'vitest';
import { deriveAlertDateRange, findDateRange, formatDateRange } from './date-range.ts';

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
