import { describe, expect, it } from 'vitest';
import {
  bookingLink,
  countStays,
  describeStay,
  describeStayWindows,
  expandStayWindows,
  MAX_STAYS_PER_ALERT,
  openStaysFromNights,
  stayOverrides,
  stayWindowMessages,
  stayWindowProblem,
  stayWindowsSchema,
  templateStaySchema,
} from './stay-window.ts';

const june = { start: '2027-06-01', end: '2027-06-30', minNights: 4, maxNights: 5 };

describe('expandStayWindows: the exact candidate stays of a window', () => {
  it('lists every check-in whose stay ends by the window end, for each length', () => {
    const stays = expandStayWindows([{ ...june, minNights: 4, maxNights: 4 }], '2027-01-01');
    // Check-in June 1 … June 26 (a 4-night stay from June 26 ends June 30).
    expect(stays).toHaveLength(26);
    expect(stays[0]).toEqual({ checkIn: '2027-06-01', checkOut: '2027-06-05', nights: 4 });
    expect(stays.at(-1)).toEqual({ checkIn: '2027-06-26', checkOut: '2027-06-30', nights: 4 });
  });

  it('takes min and max nights, ordered by check-in then length', () => {
    const stays = expandStayWindows([june], '2027-01-01');
    expect(stays).toHaveLength(26 + 25);
    expect(stays.slice(0, 2).map((s) => s.nights)).toEqual([4, 5]);
    expect(stays.at(-1)).toEqual({ checkIn: '2027-06-26', checkOut: '2027-06-30', nights: 4 });
  });

  it('keeps only the arrival weekdays asked for', () => {
    // June 2027: Thursdays 3, 10, 17, 24; Fridays 4, 11, 18, 25; Saturdays 5, 12, 19, 26.
    const stays = expandStayWindows([{ ...june, arrivalWeekdays: ['thu', 'fri', 'sat'] }], '2027-01-01');
    const checkIns = [...new Set(stays.map((s) => s.checkIn.slice(8)))];
    expect(checkIns).toEqual(['03', '04', '05', '10', '11', '12', '17', '18', '19', '24', '25', '26']);
    // Each takes 4 and 5 nights, except June 26 (only 4 fit).
    expect(stays).toHaveLength(12 * 2 - 1);
  });

  it('drops stays that begin before today, so the window moves past them', () => {
    expect(expandStayWindows([june], '2027-06-20')[0]!.checkIn).toBe('2027-06-20');
    expect(expandStayWindows([june], '2027-06-27')).toEqual([]);
  });

  it('joins several windows without repeating a stay', () => {
    const a = { start: '2027-06-01', end: '2027-06-10', minNights: 3, maxNights: 3 };
    const b = { start: '2027-06-05', end: '2027-06-15', minNights: 3, maxNights: 3 };
    const stays = expandStayWindows([a, b], '2027-01-01');
    expect(stays.map((s) => s.checkIn)).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((d) => `2027-06-${String(d).padStart(2, '0')}`),
    );
    expect(countStays([a, b], '2027-01-01')).toBe(12);
  });
});

describe('stayWindowProblem: the cap and the empty window', () => {
  it('refuses more stays than the cap, naming the count and the cap', () => {
    const wide = { start: '2027-06-01', end: '2027-08-31', minNights: 1, maxNights: 14 };
    const count = countStays([wide], '2027-01-01');
    expect(count).toBeGreaterThan(MAX_STAYS_PER_ALERT);
    expect(stayWindowProblem([wide], '2027-01-01')).toBe(
      stayWindowMessages.tooManyStays(count, MAX_STAYS_PER_ALERT),
    );
    expect(stayWindowMessages.tooManyStays(1204, 120)).toContain('1204 stays');
    expect(stayWindowMessages.tooManyStays(1204, 120)).toContain('at most 120');
  });

  it('refuses a window with no stay left from today', () => {
    expect(stayWindowProblem([june], '2027-07-01')).toBe(stayWindowMessages.noStays);
    expect(stayWindowProblem([june], '2027-01-01')).toBeNull();
  });
});

describe('stayWindowsSchema', () => {
  it('accepts one or more windows and refuses malformed ones with their messages', () => {
    expect(stayWindowsSchema.safeParse([june]).success).toBe(true);
    const issues = (v: unknown) =>
      stayWindowsSchema.safeParse(v).error?.issues.map((i) => i.message) ?? ([] as string[]);
    expect(issues([])).toContain(stayWindowMessages.windowRequired);
    expect(issues([{ ...june, end: '2027-05-01' }])).toContain(stayWindowMessages.endBeforeStart);
    expect(issues([{ ...june, start: '2027-02-30' }])).toContain(stayWindowMessages.dateInvalid);
    expect(issues([{ ...june, minNights: 0 }])).toContain(stayWindowMessages.nightsRange);
    expect(issues([{ ...june, minNights: 6 }])).toContain(stayWindowMessages.maxBelowMin);
    expect(issues([{ ...june, arrivalWeekdays: ['thursday'] }])).toContain(stayWindowMessages.weekdayInvalid);
  });
});

describe('templateStaySchema', () => {
  const checkIn = { target: 'QUERY' as const, path: 'checkIn' };
  it('takes a check-in and either a check-out or a number of nights', () => {
    expect(
      templateStaySchema.safeParse({ checkIn, checkOut: { target: 'QUERY', path: 'out' } }).success,
    ).toBe(true);
    expect(
      templateStaySchema.safeParse({ checkIn, nights: { target: 'BODY', path: 'stay.nights' } }).success,
    ).toBe(true);
    const neither = templateStaySchema.safeParse({ checkIn });
    expect(neither.error?.issues[0]?.message).toBe(stayWindowMessages.stayEnd);
  });
});

describe('stayOverrides: a stay written into the alert’s overrides', () => {
  const stay = { checkIn: '2027-06-12', checkOut: '2027-06-16', nights: 4 };
  it('sets check-in and check-out, keeping the other overrides', () => {
    const overrides = stayOverrides(
      { query: { adults: 2 } },
      { checkIn: { target: 'QUERY', path: 'checkIn' }, checkOut: { target: 'QUERY', path: 'checkOut' } },
      stay,
    );
    expect(overrides).toEqual({ query: { adults: 2, checkIn: '2027-06-12', checkOut: '2027-06-16' } });
  });
  it('or check-in and nights', () => {
    const overrides = stayOverrides(
      {},
      { checkIn: { target: 'BODY', path: 'stay.from' }, nights: { target: 'BODY', path: 'stay.nights' } },
      stay,
    );
    expect(overrides).toEqual({ body: { 'stay.from': '2027-06-12', 'stay.nights': 4 } });
  });
});

describe('words and links', () => {
  it('says a stay plainly', () => {
    expect(describeStay({ checkIn: '2027-06-10', checkOut: '2027-06-14', nights: 4 })).toBe(
      'Thu Jun 10 → Mon Jun 14, 4 nights',
    );
    expect(describeStay({ checkIn: '2027-06-10', checkOut: '2027-06-11', nights: 1 })).toBe(
      'Thu Jun 10 → Fri Jun 11, 1 night',
    );
  });

  it('sums a window up for the list row', () => {
    expect(describeStayWindows([{ ...june, arrivalWeekdays: ['thu', 'fri', 'sat'] }])).toBe(
      'Jun 1–30 · 4–5 nights · Thu–Sat',
    );
    expect(describeStayWindows([{ ...june, minNights: 4, maxNights: 4 }])).toBe('Jun 1–30 · 4 nights');
    expect(
      describeStayWindows([
        {
          start: '2027-06-25',
          end: '2027-07-05',
          minNights: 2,
          maxNights: 3,
          arrivalWeekdays: ['mon', 'fri'],
        },
        june,
      ]),
    ).toBe('Jun 25–Jul 5 · 2–3 nights · Mon, Fri (+1 more window)');
  });

  it('fills a booking link’s placeholders', () => {
    expect(
      bookingLink(
        'https://resort.example/book?in={checkIn}&out={checkOut}&n={nights}&a={adults}',
        { checkIn: '2027-06-12', checkOut: '2027-06-16', nights: 4 },
        { adults: 2 },
      ),
    ).toBe('https://resort.example/book?in=2027-06-12&out=2027-06-16&n=4&a=2');
  });
});

describe('openStaysFromNights: stays read from one per-night answer', () => {
  const perNight = { path: 'nights', dateField: 'date', availableField: 'available', availableValue: true };
  const nights = (open: string[]) =>
    Array.from({ length: 30 }, (_, i) => {
      const date = `2027-06-${String(i + 1).padStart(2, '0')}`;
      return { date, available: open.includes(date) };
    });

  it('finds exactly the stays whose every night is available', () => {
    const data = { nights: nights(['2027-06-10', '2027-06-11', '2027-06-12', '2027-06-13', '2027-06-20']) };
    const candidates = expandStayWindows([{ ...june, minNights: 4, maxNights: 5 }], '2027-01-01');
    expect(openStaysFromNights(candidates, data, perNight)).toEqual([
      { checkIn: '2027-06-10', checkOut: '2027-06-14', nights: 4 },
    ]);
  });

  it('reads a string or numeric availability by the template’s condition', () => {
    const data = {
      nights: [
        { date: '2027-06-01', left: 'yes' },
        { date: '2027-06-02', left: 'yes' },
      ],
    };
    const candidates = [{ checkIn: '2027-06-01', checkOut: '2027-06-03', nights: 2 }];
    expect(
      openStaysFromNights(candidates, data, { ...perNight, availableField: 'left', availableValue: 'yes' }),
    ).toEqual(candidates);
    expect(openStaysFromNights(candidates, { nights: [] }, perNight)).toEqual([]);
  });
});
