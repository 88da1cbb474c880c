import type { BuiltRequest, WatchConfig } from '@resort/shared';
import { evaluateWatch } from '@resort/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { PollingTemplate } from '../modules/templates/templates.service.ts';
import {
  matchedBeforeFor,
  pollWindow,
  STAY_SPREAD_MAX_MS,
  stayMessage,
  stayOffsetMs,
  staySpreadMs,
  staysToList,
  type WindowPoll,
} from './stay-expansion.ts';

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

type Fetched = { ok: true; answer: { json: unknown } } | { ok: false };

describe('a window poll spreads its stays', () => {
  const window = { start: '2027-06-01', end: '2027-06-12', minNights: 4, maxNights: 4 };
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Polls the window on a fake clock, noting when each stay is fetched (ms after the poll's start). */
  async function spreadPoll(openCheckIn: string | null) {
    vi.useFakeTimers({ now: 1_000_000 });
    const fetchedAt: { checkIn: string; at: number }[] = [];
    const polled = pollWindow(
      {
        deps: {
          build: (_template, a) =>
            ({
              url: 'http://upstream.test/',
              method: 'GET',
              headers: {},
              query: {},
              body: a.overrides,
            }) as BuiltRequest,
          fetch: async (req): Promise<{ fetched: Fetched; shared: boolean }> => {
            const checkIn = (req.body as { query: { arrival: string } }).query.arrival;
            fetchedAt.push({ checkIn, at: Date.now() - 1_000_000 });
            return {
              fetched: { ok: true, answer: { json: { open: checkIn === openCheckIn } } },
              shared: false,
            };
          },
          judge: (fetched) => {
            const json = fetched.ok ? (fetched.answer.json as { open: boolean }) : { open: false };
            return { kind: 'answered', statusCode: 200, evaluation: { ...evaluation, matched: json.open } };
          },
          failure: (): Fetched => ({ ok: false }),
          now: () => Date.now(),
        },
        alert: {
          id: 'a1',
          polling_interval_seconds: 60,
          overrides: {},
          last_values: null,
        } as unknown as ClaimedAlert,
        template: { id: 't1', request: {} } as unknown as PollingTemplate,
        w: { windows: [window], stay: { checkIn: { target: 'QUERY', path: 'arrival' } } },
        watch: { all: [] } as unknown as WatchConfig,
      },
      '2027-05-01',
      1_000_000,
    );
    await vi.runAllTimersAsync();
    return { result: await polled, fetchedAt };
  }

  it('checks each stay at its own offset within half the interval, the same offset for every alert', async () => {
    const { fetchedAt, result } = await spreadPoll(null);
    expect(result.open).toEqual([]);
    expect(fetchedAt.map((f) => f.checkIn).sort()).toEqual(
      ['01', '02', '03', '04', '05', '06', '07', '08'].map((d) => `2027-06-${d}`),
    );
    const spread = staySpreadMs(60);
    expect(spread).toBe(30_000);
    for (const f of fetchedAt) {
      const offset = stayOffsetMs({ checkIn: f.checkIn, checkOut: '', nights: 4 }, spread);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(spread);
      // At its turn, or later only when four stays were in flight before it.
      expect(f.at).toBeGreaterThanOrEqual(offset);
    }
    // Spread, not bunched: the stays' turns cover much of the spread.
    const times = fetchedAt.map((f) => f.at);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(spread / 3);
    expect(staySpreadMs(3600)).toBe(STAY_SPREAD_MAX_MS);
  });

  it('checks the remaining stays at once when one newly opens', async () => {
    const { fetchedAt: calm } = await spreadPoll(null);
    const first = calm[0]!;
    const { fetchedAt, result } = await spreadPoll(first.checkIn);
    expect(result.newlyOpen.map((o) => o.stay.checkIn)).toEqual([first.checkIn]);
    expect(fetchedAt).toHaveLength(calm.length);
    // Every stay is checked at the opening stay's moment: none waits for its own turn.
    expect(fetchedAt.every((f) => f.at === first.at)).toBe(true);
  });
});
