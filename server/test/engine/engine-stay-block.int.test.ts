import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPlanner,
  type EngineApp,
  notificationsOf,
  pollRuns,
  startEngineApp,
  startWebhookReceiver,
  type WebhookReceiver,
  waitFor,
} from './engine-fixtures.ts';
import * as stays from './stay-fixtures.ts';

/**
 * The acceptance run of stay windows: on the scripted simulator, exactly one 4-night block opens
 * inside a 30-day window. The owner's webhook receives one message naming that stay, from the first
 * poll after it opened (so within one polling interval), and no false message over at least 10,000
 * polls, a poll here being one stay checked for one alert (one upstream request judged; the alerts
 * have different parties, so nothing is shared). Other planners' window alerts make up the load.
 */
const INTERVAL = 5;
const LOAD_ALERTS = 19;
const MIN_POLLS = 10_000;
const june = { start: '2027-06-01', end: '2027-06-30', minNights: 4, maxNights: 5 };
const block = stays.nightsFrom('2027-06-10', 4);
const stayWords = 'Thu Jun 10 → Mon Jun 14, 4 nights';

let world: EngineApp;
let sim: stays.StaySimulator;
let loadReceiver: WebhookReceiver;

beforeAll(async () => {
  sim = await stays.startStaySimulator();
  loadReceiver = await startWebhookReceiver();
  world = await startEngineApp({ deliveries: true, start: false });
});

afterAll(async () => {
  await world?.close();
  await sim?.close();
  await loadReceiver?.close();
});

const stayChecks = () => [...sim.stayRequests().values()].reduce((a, b) => a + b, 0);

describe('engine: one 4-night block opens in a 30-day window', () => {
  it('notifies its owner once, naming the stay, with no false message over 10,000+ polls', {
    timeout: 600_000,
  }, async () => {
    const { t, planner, receiver } = world;
    const templateId = await stays.createStayTemplate(t.db, sim.url);
    const [owner] = await stays.createWindowAlerts(t.db, planner, templateId, [
      { window: [june], interval: INTERVAL, title: 'Any 4 or 5 nights in June' },
    ]);
    const others = await createPlanner(t.db, loadReceiver.url);
    const load = await stays.createWindowAlerts(
      t.db,
      others,
      templateId,
      Array.from({ length: LOAD_ALERTS }, (_, i) => ({ window: [june], interval: INTERVAL, adults: 3 + i })),
    );
    await world.engine.start();

    // Nothing open for three polls of the owner's alert.
    await waitFor(async () => (await pollRuns(t.db, owner!)).length >= 3, {
      timeoutMs: 120_000,
      what: '3 polls',
    });
    const openedAt = new Date();
    sim.openNights(block);

    const delivered = await waitFor(() => receiver!.received[0], {
      timeoutMs: 120_000,
      what: 'the delivery',
    });
    const deliveredAfterMs = delivered.at - openedAt.getTime();

    // Keep polling until at least 10,000 stay checks were answered, then let the last polls land.
    await waitFor(() => stayChecks() >= MIN_POLLS, {
      timeoutMs: 480_000,
      intervalMs: 500,
      what: '10,000 polls',
    });
    await world.engine.stop();
    const polls = stayChecks();
    const runs = await t.db
      .selectFrom('poll_runs')
      .select(({ fn }) => fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();

    // The owner: one message, naming the stay, from the first poll that began after the block opened.
    const mine = receiver!.received.filter((r) => r.body.registrationId === owner);
    expect(receiver!.received).toHaveLength(1);
    expect(String(mine[0]!.body.message)).toContain(`${stayWords}:`);
    const notes = await notificationsOf(t.db, owner!);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.metadata.stays).toEqual([
      expect.objectContaining({ checkIn: '2027-06-10', checkOut: '2027-06-14', nights: 4 }),
    ]);
    const ownerRuns = await pollRuns(t.db, owner!);
    const notifying = ownerRuns.findIndex((r) => r.notified);
    const startedAfter = ownerRuns.filter((r, i) => i < notifying && r.started_at >= openedAt);
    expect(startedAfter).toEqual([]);

    // Every message, the owner's and the load's: one per alert, each naming the one stay; nothing else.
    const notified = await t.db.selectFrom('notifications').select(['alert_id', 'message']).execute();
    expect(notified.map((n) => n.alert_id).sort()).toEqual([owner!, ...load].sort());
    expect(notified.filter((n) => !n.message.includes(`): ${stayWords}:`))).toEqual([]);
    await waitFor(() => loadReceiver.received.length >= LOAD_ALERTS, { what: 'the load deliveries' });
    const all = [...receiver!.received, ...loadReceiver.received];
    // A true message lists exactly the one stay after its head ("…, party The Parkers): Thu Jun 10 → …").
    const listed = (text: string) => text.slice(text.indexOf('): ') + 3);
    const falseMessages = all.filter((r) => {
      const stays = listed(String(r.body.message));
      return !stays.startsWith(`${stayWords}:`) || stays.includes(' · ');
    });
    const perAlert = new Map<string, number>();
    for (const r of all)
      perAlert.set(String(r.body.registrationId), (perAlert.get(String(r.body.registrationId)) ?? 0) + 1);
    expect(falseMessages).toEqual([]);
    expect([...perAlert.values()].every((n) => n === 1)).toBe(true);
    expect(polls).toBeGreaterThanOrEqual(MIN_POLLS);

    console.info(
      `stay block: ${polls} polls (stays checked) in ${runs.n} alert polls by ${1 + LOAD_ALERTS} window alerts; ` +
        `${all.length} messages, ${falseMessages.length} false; the owner's delivered ${deliveredAfterMs} ms after the block opened (interval ${INTERVAL} s)`,
    );
  });
});
