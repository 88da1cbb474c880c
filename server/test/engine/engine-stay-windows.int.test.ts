import { earliestToday, expandStayWindows, readStayStates } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import {
  alertRow,
  type EngineApp,
  notificationsOf,
  pollRuns,
  startEngineApp,
  type WebhookReceiver,
  waitFor,
} from './engine-fixtures.ts';
import {
  createStayTemplate,
  createWindowAlerts,
  nightsFrom,
  type StaySimulator,
  startStaySimulator,
} from './stay-fixtures.ts';

/**
 * Stay windows in the engine, end to end on real PostgreSQL and pg-boss against the scripted
 * simulator: each window expands into its stays, built by the one request builder; identical stay
 * requests of different alerts share one fetch; the rules run per stay; firstMatch notifies per
 * newly opened stay, naming it, and the webhook payload carries the stays.
 */
let world: EngineApp;
let t: TestApp;
let receiver: WebhookReceiver;
let planner: { userId: string; serviceId: string };
// One simulator per test: each scripts its own nights and counts its own requests.
const sims: StaySimulator[] = [];
const simulator = async () => {
  const sim = await startStaySimulator();
  sims.push(sim);
  return sim;
};

const runsAtLeast = (id: string, n: number) =>
  waitFor(async () => (await pollRuns(t.db, id)).length >= n, { what: `${n} polls`, timeoutMs: 60_000 });

/**
 * The alert's stay calendar once its write-back records `open` open stays. A poll's notification
 * commits before its outcome is written back, so a notification seen does not yet mean the calendar
 * says so.
 */
const openStaysWritten = (id: string, open: number) =>
  waitFor(
    async () => {
      const states = readStayStates((await alertRow(t.db, id)).last_values);
      return states && states.stays.filter((s) => s.state === 'open').length >= open ? states : null;
    },
    { what: `${open} open stays written back` },
  );

beforeAll(async () => {
  world = await startEngineApp({ deliveries: true, start: true });
  ({ t, planner } = world);
  receiver = world.receiver!;
  // The webhook body carries the stays as data.
  await t.db
    .updateTable('notification_services')
    .set({
      config: JSON.stringify({
        url: receiver.url,
        method: 'POST',
        headers: [],
        bodyTemplate:
          '{"message":"{{message}}","registrationId":"{{registrationId}}","stays":"{{metadata.stays}}"}',
      }),
    })
    .where('id', '=', planner.serviceId)
    .execute();
});

afterAll(async () => {
  await world?.close();
  await Promise.all(sims.map((s) => s.close()));
});

describe.concurrent('engine: stay windows', { timeout: 120_000 }, () => {
  it('shares identical stay requests across alerts: the upstream counts each distinct stay once', async () => {
    const sim = await simulator();
    const templateId = await createStayTemplate(t.db, sim.url);
    // Check-ins June 1–7 and June 5–11 (3 nights): 7 + 7 stays, 3 of them in both windows.
    const [a, b] = await createWindowAlerts(t.db, planner, templateId, [
      { window: [{ start: '2027-06-01', end: '2027-06-10', minNights: 3, maxNights: 3 }], interval: 3600 },
      { window: [{ start: '2027-06-05', end: '2027-06-14', minNights: 3, maxNights: 3 }], interval: 3600 },
    ]);
    await runsAtLeast(a!, 1);
    await runsAtLeast(b!, 1);
    const perStay = sim.stayRequests();
    expect(perStay.size).toBe(11);
    expect([...perStay.values()].every((n) => n === 1)).toBe(true);
    expect(sim.stats().byPath['/availability']).toBe(11);
  });

  it('firstMatch notifies for a newly opened stay, not again while it stays open, and again for a second stay', async () => {
    const sim = await simulator();
    const templateId = await createStayTemplate(t.db, sim.url);
    const [id] = await createWindowAlerts(t.db, planner, templateId, [
      {
        window: [
          { start: '2027-06-01', end: '2027-06-30', minNights: 4, maxNights: 5, arrivalWeekdays: ['thu'] },
        ],
        title: 'June, Thursday arrivals',
      },
    ]);
    await runsAtLeast(id!, 1);
    expect(await notificationsOf(t.db, id!)).toHaveLength(0);

    // Thursday June 10: four nights open, so the 4-night stay opens (the 5-night one does not).
    sim.openNights(nightsFrom('2027-06-10', 4));
    const first = await waitFor(async () => (await notificationsOf(t.db, id!))[0], {
      what: 'the first stay',
    });
    expect(first.message).toBe(
      'Alert "June, Thursday arrivals" matched (Lagoon stays, party The Parkers): Thu Jun 10 → Mon Jun 14, 4 nights: Lagoon View: 2 rooms available (book: https://resort.example/book?arrive=2027-06-10&depart=2027-06-14&adults=2).',
    );
    expect(first.message).not.toContain('5 nights');
    expect(first.metadata.stays).toEqual([
      {
        checkIn: '2027-06-10',
        checkOut: '2027-06-14',
        nights: 4,
        bookingUrl: 'https://resort.example/book?arrive=2027-06-10&depart=2027-06-14&adults=2',
      },
    ]);
    const runsAtFirst = (await pollRuns(t.db, id!)).length;
    await runsAtLeast(id!, runsAtFirst + 2);
    expect(await notificationsOf(t.db, id!)).toHaveLength(1);

    // Thursday June 17 opens too (June 10 stays open): one more notification, naming June 17 only.
    sim.openNights([...nightsFrom('2027-06-10', 4), ...nightsFrom('2027-06-17', 5)]);
    const second = await waitFor(async () => (await notificationsOf(t.db, id!))[1], {
      what: 'the second stay',
    });
    expect(second.message).toContain('Thu Jun 17 → Mon Jun 21, 4 nights');
    expect(second.message).toContain('Thu Jun 17 → Tue Jun 22, 5 nights');
    expect(second.message).not.toContain('Jun 10');
    expect((second.metadata.stays as { checkIn: string }[]).map((s) => s.checkIn)).toEqual([
      '2027-06-17',
      '2027-06-17',
    ]);

    // The alert records which stays are open (its calendar) and the webhook payload carries them.
    const states = await openStaysWritten(id!, 3);
    expect(states.stays.filter((s) => s.state === 'open').map((s) => `${s.checkIn}/${s.nights}`)).toEqual([
      '2027-06-10/4',
      '2027-06-17/4',
      '2027-06-17/5',
    ]);
    // Thursdays June 3, 10, 17, 24, each for 4 and 5 nights.
    expect(states.stays.length).toBe(8);
    const hooks = await waitFor(() => {
      const mine = receiver.received.filter((r) => r.body.registrationId === id);
      return mine.length === 2 ? mine : null;
    });
    expect(hooks[0]!.body.stays).toEqual([
      {
        checkIn: '2027-06-10',
        checkOut: '2027-06-14',
        nights: 4,
        bookingUrl: 'https://resort.example/book?arrive=2027-06-10&depart=2027-06-14&adults=2',
      },
    ]);
  });

  it('reads a per-night answer with one request a poll, finding and naming the one 4-night run', async () => {
    const sim = await simulator();
    const templateId = await createStayTemplate(t.db, sim.url, 'per-night');
    // Nights 10–13 open (one 4-night run), and lone nights 20 and 25: no other stay of 4–5 nights.
    sim.openNights([...nightsFrom('2027-06-10', 4), '2027-06-20', '2027-06-25']);
    const [id] = await createWindowAlerts(t.db, planner, templateId, [
      {
        window: [{ start: '2027-06-01', end: '2027-06-30', minNights: 4, maxNights: 5 }],
        watch: { all: [{ path: 'nights[*].price', operator: 'lte', value: 800 }], notifyOn: 'firstMatch' },
        title: 'Any 4 or 5 nights in June',
      },
    ]);
    const note = await waitFor(async () => (await notificationsOf(t.db, id!))[0], { what: 'the run' });
    expect(note.message).toContain('Thu Jun 10 → Mon Jun 14, 4 nights');
    expect(note.metadata.stays).toEqual([
      expect.objectContaining({ checkIn: '2027-06-10', checkOut: '2027-06-14', nights: 4 }),
    ]);
    // One request a poll (a poll may be in flight while the runs are read).
    const runs = (await pollRuns(t.db, id!)).length;
    expect(sim.stats().byPath['/nights']).toBeGreaterThanOrEqual(runs);
    expect(sim.stats().byPath['/nights']).toBeLessThanOrEqual(runs + 1);
    expect((await openStaysWritten(id!, 1)).stays.filter((s) => s.state === 'open')).toEqual([
      { checkIn: '2027-06-10', checkOut: '2027-06-14', nights: 4, state: 'open' },
    ]);
  });

  it('polls exactly the expansion from today on: stays that began before today drop out', async () => {
    const sim = await simulator();
    const templateId = await createStayTemplate(t.db, sim.url);
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const window = {
      start: day(-6),
      end: day(8),
      minNights: 2,
      maxNights: 3,
      arrivalWeekdays: ['mon', 'wed', 'fri', 'sat'] as const,
    };
    const [id] = await createWindowAlerts(t.db, planner, templateId, [
      { window: [{ ...window, arrivalWeekdays: [...window.arrivalWeekdays] }], interval: 3600 },
    ]);
    await runsAtLeast(id!, 1);
    const polled = readStayStates((await alertRow(t.db, id!)).last_values)!.stays.map(
      (s) => `${s.checkIn}/${s.checkOut}`,
    );
    const today = earliestToday();
    const expected = expandStayWindows(
      [{ ...window, arrivalWeekdays: [...window.arrivalWeekdays] }],
      today,
    ).map((s) => `${s.checkIn}/${s.checkOut}`);
    expect(polled).toEqual(expected);
    expect(polled.every((key) => key.slice(0, 10) >= today)).toBe(true);
    expect([...sim.stayRequests().keys()].sort()).toEqual([...expected].sort());
  });
});
