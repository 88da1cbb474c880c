import type { Alert, ArchivePage, DashboardSummary, Watchlist } from '@resort/shared';
import { AUTO_ARCHIVE_DAYS, watchlistMessages as m } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngineFromServices } from '../../src/engine/start-engine.ts';
import { queues } from '../../src/jobs/queues.ts';
import { AUTO_ARCHIVE_CRON, registerAutoArchive } from '../../src/modules/watchlists/archive.jobs.ts';
import { createAlertOk, type ErrorBody, insertTemplate } from '../alerts/fixtures.ts';
import {
  alertRow,
  createAlerts,
  createPlanner,
  createTemplate,
  notificationsOf,
  pollRuns,
  rooms,
  startUpstream,
  startWebhookReceiver,
  type Upstream,
  waitFor,
} from '../engine/engine-fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createManualClock } from '../helpers/clock.ts';
import { callAs } from './fixtures.ts';

const DAY = 86_400_000;
let t: TestApp;
let upstream: Upstream;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
const clock = createManualClock();
let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let templateId: string;
let autoArchiveWorker: string;

beforeAll(async () => {
  upstream = await startUpstream();
  receiver = await startWebhookReceiver();
  t = await startTestApp({
    boss: true,
    clock,
    env: { OUTBOUND_ALLOWLIST: '127.0.0.1', ENGINE_TICK_MS: '50', ENGINE_LOOKAHEAD_MS: '200' },
  });
  owner = await createUser(t, { name: 'Archive Owner' });
  other = await createUser(t);
  admin = await createUser(t, { role: 'admin' });
  templateId = await insertTemplate(t, { name: 'Grand Floridian' });
  autoArchiveWorker = await registerAutoArchive(t.boss!, t.services);
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
  await receiver?.close();
});

const call = <T>(user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  callAs<T>(t, user, method, url, body);

const statusOf = async (id: string) => (await alertRow(t.db, id)).status;
const activeIds = async (user: TestUser) =>
  (await call<Alert[]>(user, 'GET', '/users/me/registrations')).data!.map((a) => a.id);

/**
 * Sends the hourly job now, wakes its worker (which otherwise polls every 30 s: an hourly job need
 * not hurry) and waits until pg-boss has run it to completion.
 */
async function runAutoArchiveJob() {
  const jobId = await t.boss!.send(queues.autoArchive, {});
  t.boss!.notifyWorker(autoArchiveWorker);
  await waitFor(async () => (await t.boss!.getJobById(queues.autoArchive, jobId!))?.state === 'completed', {
    what: 'the auto-archive job to complete',
    timeoutMs: 45_000,
  });
}

describe('archive, restore and delete with the engine running', { timeout: 90_000 }, () => {
  it('stops polling an archived alert, resumes on restore, and a permanent delete removes its history', async () => {
    upstream.set('/open', { body: rooms(true) });
    const planner = await createPlanner(t.db, receiver.url, owner.id);
    const tpl = await createTemplate(t.db, `${upstream.url}/open`);
    const [id, keep] = await createAlerts(t.db, planner, tpl, [{ title: 'Fires' }, { title: 'Keeps' }]);
    const trip = (await call<Watchlist>(owner, 'POST', '/watchlists', { name: 'Engine trip' })).data!;
    await call(owner, 'POST', `/watchlists/${trip.id}/registrations`, { registrationIds: [id, keep] });
    const engine = createEngineFromServices(t.services);
    await engine.start();
    try {
      await waitFor(async () => (await statusOf(id!)) === 'FIRING' && (await statusOf(keep!)) === 'FIRING', {
        what: 'both alerts to fire',
      });
      await waitFor(async () => (await notificationsOf(t.db, id!)).length > 0, { what: 'a notification' });
      // Stats come from the real alerts: available, and the last notification.
      const stats = (await call<Watchlist>(owner, 'GET', `/watchlists/${trip.id}`)).data!.stats;
      expect(stats).toMatchObject({ alertCount: 2, availableCount: 2, lastNotifiedAt: expect.any(String) });
      const summary = (await call<DashboardSummary>(owner, 'GET', '/users/me/dashboard')).data!;
      expect(summary.availableAlerts).toBeGreaterThanOrEqual(2);
      expect(summary.triggeredLast24h).toBeGreaterThanOrEqual(2);

      expect((await call(owner, 'POST', '/archive', { registrationIds: [id] })).status).toBe(200);
      const archived = await alertRow(t.db, id!);
      expect(archived).toMatchObject({
        status: 'ARCHIVED',
        archived_from_status: 'FIRING',
        next_due_at: null,
      });
      // Not claimable by any worker, however far ahead it looks; not in any active list.
      const claim = await t.services.alertPolling.claimDue({
        workerId: '00000000-0000-4000-8000-000000000001',
        token: '00000000-0000-4000-8000-000000000002',
        limit: 10_000,
        dueBefore: new Date(Date.now() + 365 * DAY),
        leaseSeconds: 1,
      });
      expect(claim.alerts.map((a) => a.id)).not.toContain(id);
      expect(await activeIds(owner)).not.toContain(id);
      const adminList = await call<Alert[]>(admin, 'GET', '/admin/registrations');
      expect(adminList.data!.map((a) => a.id)).not.toContain(id);

      // Restore: back to FIRING's polling, and the engine polls it again.
      const before = (await pollRuns(t.db, id!)).length;
      expect((await call(owner, 'POST', '/archive/restore', { registrationIds: [id] })).status).toBe(200);
      expect(await alertRow(t.db, id!)).toMatchObject({ status: 'FIRING', archived_at: null });
      await waitFor(async () => (await pollRuns(t.db, id!)).length > before, { what: 'polling to resume' });

      // Permanent delete: only an archived alert, only the owner's; its notifications, deliveries and poll runs go.
      expect((await call(owner, 'POST', '/archive/delete', { registrationIds: [id] })).status).toBe(404);
      await call(owner, 'POST', '/archive', { registrationIds: [id] });
      const notificationIds = (await notificationsOf(t.db, id!)).map((n) => n.id);
      expect(notificationIds.length).toBeGreaterThan(0);
      expect((await call(other, 'POST', '/archive/delete', { registrationIds: [id] })).status).toBe(404);
      expect((await call(owner, 'POST', '/archive/delete', { registrationIds: [id] })).status).toBe(204);
      expect(await t.db.selectFrom('alerts').select('id').where('id', '=', id!).execute()).toEqual([]);
      expect(await pollRuns(t.db, id!)).toEqual([]);
      expect(await notificationsOf(t.db, id!)).toEqual([]);
      const deliveries = await t.db
        .selectFrom('notification_deliveries')
        .select('id')
        .where('notification_id', 'in', notificationIds)
        .execute();
      expect(deliveries).toEqual([]);
      // The other alert keeps its history.
      expect((await pollRuns(t.db, keep!)).length).toBeGreaterThan(0);
      expect((await notificationsOf(t.db, keep!)).length).toBeGreaterThan(0);
      expect((await call<Watchlist>(owner, 'GET', `/watchlists/${trip.id}`)).data!.registrationIds).toEqual([
        keep,
      ]);
    } finally {
      await engine.stop();
    }
  });
});

describe('auto-archive on pg-boss cron', { timeout: 150_000 }, () => {
  it('is scheduled in the same database', async () => {
    const schedules = await t.boss!.getSchedules();
    expect(schedules.find((s) => s.name === queues.autoArchive)).toMatchObject({ cron: AUTO_ARCHIVE_CRON });
  });

  it('pages the Archived view 25 at a time', async () => {
    const planner = await createUser(t);
    const ids: string[] = [];
    for (let i = 0; i < 27; i++)
      ids.push((await createAlertOk(t, planner, templateId, { title: `Old ${i}` })).id);
    expect((await call(planner, 'POST', '/archive', { registrationIds: ids })).data).toEqual({
      ids: expect.arrayContaining(ids),
    });
    const first = (await call<ArchivePage>(planner, 'GET', '/archive?page=1')).data!;
    const second = (await call<ArchivePage>(planner, 'GET', '/archive?page=2')).data!;
    expect([first.items.length, second.items.length, first.total]).toEqual([25, 2, 27]);
    expect(new Set([...first.items, ...second.items].map((a) => a.id)).size).toBe(27);
    // Archiving again is harmless; another user's ids answer 404 and change nothing.
    expect((await call(planner, 'POST', '/archive', { registrationIds: [ids[0]] })).status).toBe(200);
    const theirs = await call(other, 'POST', '/archive/delete', { registrationIds: [ids[0]] });
    expect(theirs.status).toBe(404);
    expect(theirs.res.json<ErrorBody>().message).toBe(m.alertNotFound);
    expect(await statusOf(ids[0]!)).toBe('ARCHIVED');
  });

  it('answers an archived alert by id and on its page, as ARCHIVED', async () => {
    const planner = await createUser(t);
    const { id } = await createAlertOk(t, planner, templateId, { title: 'Put away' });
    expect((await call(planner, 'POST', '/archive', { registrationIds: [id] })).status).toBe(200);
    const one = await call<Alert>(planner, 'GET', `/registrations/${id}`);
    expect([one.status, one.data?.status]).toEqual([200, 'ARCHIVED']);
    const page = await call<{ alert: { status: string; activity: { nextCheckAt: string | null } } }>(
      planner,
      'GET',
      `/registrations/${id}/insight`,
    );
    expect([page.status, page.data?.alert.status, page.data?.alert.activity.nextCheckAt]).toEqual([
      200,
      'ARCHIVED',
      null,
    ]);
  });

  it('moves exactly the BOOKED and PASSED alerts unchanged for 30 days, once', async () => {
    const booked = await createAlertOk(t, owner, templateId, { title: 'Booked' });
    const passed = await createAlertOk(t, owner, templateId, { title: 'Passed' });
    const active = await createAlertOk(t, owner, templateId, { title: 'Still watching' });
    const disabled = await createAlertOk(t, owner, templateId, { title: 'Disabled' });
    const othersBooked = await createAlertOk(t, other, templateId, { title: 'Other booked' });
    await call(owner, 'PATCH', `/registrations/${booked.id}`, { status: 'BOOKED' });
    await call(owner, 'PATCH', `/registrations/${passed.id}`, { status: 'PASSED' });
    await call(admin, 'PATCH', `/admin/registrations/${disabled.id}`, { status: 'DISABLED' });
    await call(other, 'PATCH', `/registrations/${othersBooked.id}`, { status: 'BOOKED' });

    clock.advance((AUTO_ARCHIVE_DAYS - 1) * DAY);
    await runAutoArchiveJob();
    for (const a of [booked, passed, othersBooked]) expect(await statusOf(a.id)).not.toBe('ARCHIVED');

    clock.advance(2 * DAY);
    await runAutoArchiveJob();
    expect(await statusOf(booked.id)).toBe('ARCHIVED');
    expect(await statusOf(passed.id)).toBe('ARCHIVED');
    expect(await statusOf(othersBooked.id)).toBe('ARCHIVED');
    expect(await statusOf(active.id)).toBe('ACTIVE');
    expect(await statusOf(disabled.id)).toBe('DISABLED');
    const archivedAt = (await alertRow(t.db, booked.id)).archived_at;

    // Idempotent: a second run changes nothing.
    await runAutoArchiveJob();
    expect((await alertRow(t.db, booked.id)).archived_at).toEqual(archivedAt);
    expect(await t.services.archive.sweep()).toBe(0);

    const page = (await call<ArchivePage>(owner, 'GET', '/archive')).data!;
    expect(page).toMatchObject({ page: 1, pageSize: 25, total: 2 });
    expect(page.items.map((a) => [a.title, a.previousStatus]).sort()).toEqual([
      ['Booked', 'BOOKED'],
      ['Passed', 'PASSED'],
    ]);
    expect(await activeIds(owner)).not.toContain(booked.id);
    const summary = (await call<DashboardSummary>(owner, 'GET', '/users/me/dashboard')).data!;
    expect(summary).toMatchObject({ archived: 2, readyForAutoArchive: 0 });

    // Restored: back to BOOKED, and a restore is a change, so the sweep leaves it for another 30 days.
    const restored = await call(owner, 'POST', '/archive/restore', { registrationIds: [booked.id] });
    expect(restored.data).toEqual({ ids: [booked.id] });
    expect(await statusOf(booked.id)).toBe('BOOKED');
    expect(await activeIds(owner)).toContain(booked.id);
    expect((await call(other, 'POST', '/archive/restore', { registrationIds: [passed.id] })).status).toBe(
      404,
    );
    expect(await statusOf(passed.id)).toBe('ARCHIVED');
  });
});
