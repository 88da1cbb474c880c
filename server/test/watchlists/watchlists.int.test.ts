import type { Alert, DashboardSummary, Watchlist } from '@resort/shared';
import { watchlistMessages as m } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertOk, type ErrorBody, insertService, insertTemplate } from '../alerts/fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callAs } from './fixtures.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let templateId: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createUser(t, { name: 'Olive Owner' });
  other = await createUser(t);
  admin = await createUser(t, { role: 'admin' });
  templateId = await insertTemplate(t, { name: 'Grand Floridian' });
});
afterAll(() => t.close());

const call = <T>(user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  callAs<T>(t, user, method, url, body);

async function createWatchlist(user: TestUser, body: Record<string, unknown> = {}): Promise<Watchlist> {
  const { status, data, res } = await call<Watchlist>(user, 'POST', '/watchlists', {
    name: 'Spring trip',
    ...body,
  });
  expect(status, res.body).toBe(201);
  return data!;
}

const alert = (user: TestUser, title: string) => createAlertOk(t, user, templateId, { title });
const setStatus = (user: TestUser, id: string, status: string, asAdmin = false) =>
  call<Alert>(user, 'PATCH', `${asAdmin ? '/admin' : ''}/registrations/${id}`, { status });

describe('watchlist CRUD', () => {
  it('creates, reads, lists, edits and deletes a watchlist of the caller', async () => {
    const created = await createWatchlist(owner, { resortCode: 'gf', quarter: 'Q2', notes: ' Club level ' });
    // The resort is one of the templates' codes, in the template's spelling.
    expect(created).toMatchObject({
      name: 'Spring trip',
      resortCode: 'GF',
      quarter: 'Q2',
      notes: 'Club level',
      registrationIds: [],
      stats: { alertCount: 0, availableCount: 0, lastNotifiedAt: null },
    });
    expect((await call<Watchlist>(owner, 'GET', `/watchlists/${created.id}`)).data).toEqual(created);
    const list = await call<Watchlist[]>(owner, 'GET', '/watchlists');
    expect(list.data!.map((w) => w.id)).toContain(created.id);

    const edited = await call<Watchlist>(owner, 'PATCH', `/watchlists/${created.id}`, {
      name: 'Summer trip',
      resortCode: '',
      quarter: null,
    });
    expect(edited.status).toBe(200);
    expect(edited.data).toMatchObject({
      name: 'Summer trip',
      resortCode: null,
      quarter: null,
      notes: 'Club level',
    });

    expect((await call(owner, 'DELETE', `/watchlists/${created.id}`)).status).toBe(204);
    expect((await call(owner, 'GET', `/watchlists/${created.id}`)).status).toBe(404);
  });

  it("answers the spec's messages for a bad watchlist", async () => {
    for (const [body, message] of [
      [{ name: '  ' }, m.nameRequired],
      [{}, m.nameRequired],
      [{ name: 'Trip', quarter: 'Q5' }, m.quarterInvalid],
      [{ name: 'Trip', resortCode: 'NOPE' }, m.resortUnknown],
    ] as const) {
      const res = await t.request({ method: 'POST', url: '/api/watchlists', token: owner.token, body });
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorBody>().message).toBe(message);
    }
  });

  it("answers 404 for another user's watchlist, whatever the call", async () => {
    const mine = await createWatchlist(owner);
    const a = await alert(other, 'Other alert');
    for (const [method, url, body] of [
      ['GET', `/watchlists/${mine.id}`, undefined],
      ['PATCH', `/watchlists/${mine.id}`, { name: 'Taken over' }],
      ['DELETE', `/watchlists/${mine.id}`, undefined],
      ['GET', `/watchlists/${mine.id}/registrations`, undefined],
      ['POST', `/watchlists/${mine.id}/registrations`, { registrationIds: [a.id] }],
      ['DELETE', `/watchlists/${mine.id}/registrations/${a.id}`, undefined],
    ] as const) {
      const res = await call(other, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.res.json<ErrorBody>().message).toBe(m.notFound);
    }
    expect((await call<Watchlist>(owner, 'GET', `/watchlists/${mine.id}`)).data).toMatchObject({
      name: 'Spring trip',
      registrationIds: [],
    });
    expect((await call<Watchlist[]>(other, 'GET', '/watchlists')).data!.some((w) => w.id === mine.id)).toBe(
      false,
    );
  });
});

describe('membership', () => {
  it("adds the caller's alerts (an alert may be in several), lists them, removes one", async () => {
    const trip = await createWatchlist(owner, { name: 'Trip A' });
    const second = await createWatchlist(owner, { name: 'Trip B' });
    const a1 = await alert(owner, 'First');
    const a2 = await alert(owner, 'Second');
    const added = await call<Watchlist>(owner, 'POST', `/watchlists/${trip.id}/registrations`, {
      registrationIds: [a1.id, a2.id, a1.id],
    });
    expect(added.status).toBe(200);
    expect(added.data!.registrationIds.sort()).toEqual([a1.id, a2.id].sort());
    await call(owner, 'POST', `/watchlists/${second.id}/registrations`, { registrationIds: [a1.id] });

    const alerts = await call<Alert[]>(owner, 'GET', `/watchlists/${trip.id}/registrations`);
    expect(alerts.data!.map((a) => a.title).sort()).toEqual(['First', 'Second']);

    const removed = await call<Watchlist>(owner, 'DELETE', `/watchlists/${trip.id}/registrations/${a1.id}`);
    expect(removed.data!.registrationIds).toEqual([a2.id]);
    expect((await call<Watchlist>(owner, 'GET', `/watchlists/${second.id}`)).data!.registrationIds).toEqual([
      a1.id,
    ]);
    expect((await call(owner, 'DELETE', `/watchlists/${trip.id}/registrations/${a1.id}`)).status).toBe(404);

    // Deleting a watchlist keeps its alerts.
    await call(owner, 'DELETE', `/watchlists/${trip.id}`);
    expect((await call(owner, 'GET', `/registrations/${a2.id}`)).status).toBe(200);
  });

  it("refuses another user's alert with 404 and adds nothing", async () => {
    const trip = await createWatchlist(owner);
    const mine = await alert(owner, 'Mine');
    const theirs = await alert(other, 'Theirs');
    const res = await call(owner, 'POST', `/watchlists/${trip.id}/registrations`, {
      registrationIds: [mine.id, theirs.id],
    });
    expect(res.status).toBe(404);
    expect(res.res.json<ErrorBody>().message).toBe(m.alertNotFound);
    expect((await call<Watchlist>(owner, 'GET', `/watchlists/${trip.id}`)).data!.registrationIds).toEqual([]);
    const empty = await call(owner, 'POST', `/watchlists/${trip.id}/registrations`, { registrationIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.res.json<ErrorBody>().message).toBe(m.selectAlerts);
  });
});

describe('stats, dashboard summary and spotlight', () => {
  it('follow the alerts as their status changes', async () => {
    const planner = await createUser(t, { name: 'Stats Planner' });
    const summary = async () => (await call<DashboardSummary>(planner, 'GET', '/users/me/dashboard')).data!;
    expect(await summary()).toEqual({
      activeAlerts: 0,
      availableAlerts: 0,
      triggeredLast24h: 0,
      watchlists: 0,
      archived: 0,
      readyForAutoArchive: 0,
      statusBreakdown: [],
      spotlight: [],
    });

    const [x, y, z] = [await alert(planner, 'X'), await alert(planner, 'Y'), await alert(planner, 'Z')];
    const big = await createWatchlist(planner, { name: 'Big' });
    const hot = await createWatchlist(planner, { name: 'Hot' });
    const quiet = await createWatchlist(planner, { name: 'Quiet' });
    await createWatchlist(planner, { name: 'Empty' });
    await call(planner, 'POST', `/watchlists/${big.id}/registrations`, { registrationIds: [x.id, y.id] });
    await call(planner, 'POST', `/watchlists/${hot.id}/registrations`, { registrationIds: [z.id] });
    await call(planner, 'POST', `/watchlists/${quiet.id}/registrations`, { registrationIds: [y.id] });

    let s = await summary();
    expect(s).toMatchObject({ activeAlerts: 3, availableAlerts: 0, watchlists: 4 });
    expect(s.statusBreakdown).toEqual([{ label: 'Enabled', count: 3, percent: 100 }]);
    expect(s.spotlight.map((w) => w.name)).toEqual(['Big', 'Hot', 'Quiet']);

    // Availability found (the engine's FIRING, set here by an admin), then one booked.
    expect((await setStatus(admin, z.id, 'FIRING', true)).status).toBe(200);
    expect((await setStatus(planner, y.id, 'BOOKED')).status).toBe(200);
    s = await summary();
    expect(s).toMatchObject({ activeAlerts: 2, availableAlerts: 1, readyForAutoArchive: 1 });
    expect(s.statusBreakdown).toEqual([
      { label: 'Enabled', count: 2, percent: 67 },
      { label: 'Booked', count: 1, percent: 33 },
    ]);
    expect(s.spotlight.map((w) => [w.name, w.stats.availableCount, w.stats.alertCount])).toEqual([
      ['Hot', 1, 1],
      ['Big', 0, 2],
      ['Quiet', 0, 1],
    ]);

    // An archived alert leaves the counts (it stays a member, for a restore).
    expect((await call(planner, 'POST', '/archive', { registrationIds: [x.id] })).status).toBe(200);
    s = await summary();
    expect(s).toMatchObject({ activeAlerts: 1, archived: 1 });
    const bigNow = (await call<Watchlist>(planner, 'GET', `/watchlists/${big.id}`)).data!;
    expect(bigNow.stats).toMatchObject({ alertCount: 1, availableCount: 0 });
    expect(bigNow.registrationIds).toEqual([y.id]);
    const listed = await call<Alert[]>(planner, 'GET', `/watchlists/${big.id}/registrations`);
    expect(listed.data!.map((a) => a.id)).toEqual([y.id]);
  });
});

describe('notification preferences', () => {
  it('are stored per user, and the e-mail and SMS toggles pick the default channels of new alerts', async () => {
    const planner = await createUser(t);
    const prefs = await call(planner, 'GET', '/users/me/preferences');
    expect(prefs.data).toEqual({ push: true, email: true, sms: false, healthNotices: true });
    const sms = await insertService(t, planner.id, { type: 'SMS' });
    const primary = (
      await t.db
        .selectFrom('notification_services')
        .select('id')
        .where('user_id', '=', planner.id)
        .where('type', '=', 'EMAIL')
        .executeTakeFirstOrThrow()
    ).id;
    const linked = (a: Alert) => a.notificationServices.map((s) => s.notificationServiceId).sort();

    const first = await createAlertOk(t, planner, templateId, { notificationServiceIds: undefined });
    expect(linked(first)).toEqual([primary]);

    const saved = await call(planner, 'PATCH', '/users/me/preferences', {
      email: false,
      sms: true,
      healthNotices: false,
    });
    expect(saved.data).toEqual({ push: true, email: false, sms: true, healthNotices: false });
    expect((await call(other, 'GET', '/users/me/preferences')).data).toEqual({
      push: true,
      email: true,
      sms: false,
      healthNotices: true,
    });
    const second = await createAlertOk(t, planner, templateId);
    expect(linked(second)).toEqual([sms]);
    // A payload that names its channels keeps them.
    const third = await createAlertOk(t, planner, templateId, { notificationServiceIds: [] });
    expect(linked(third)).toEqual([]);

    const bad = await call(planner, 'PATCH', '/users/me/preferences', { sms: 'yes' });
    expect(bad.status).toBe(400);
  });
});
