import type { AdminAlert, Alert } from '@resort/shared';
import { alertMessages as m } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  type Answer,
  createAlertOk,
  type ErrorBody,
  insertService,
  insertTemplate,
  scheduleOf as scheduleOfRow,
  validPayload,
} from './fixtures.ts';

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

const createOk = (user: TestUser, extra: Record<string, unknown> = {}) =>
  createAlertOk(t, user, templateId, extra);
const scheduleOf = (id: string) => scheduleOfRow(t, id);

describe('admin procedures', () => {
  it('refuses an ordinary user with 403', async () => {
    const alert = await createOk(owner);
    const list = await t.request({ method: 'GET', url: '/api/admin/registrations', token: owner.token });
    expect(list.statusCode).toBe(403);
    const patch = await t.request({
      method: 'PATCH',
      url: `/api/admin/registrations/${alert.id}`,
      token: owner.token,
      body: { status: 'DISABLED' },
    });
    expect(patch.statusCode).toBe(403);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/admin/registrations/${alert.id}`,
      token: owner.token,
    });
    expect(del.statusCode).toBe(403);
  });

  it("lists every user's alerts with the owner's e-mail and name and a stale flag", async () => {
    const fresh = await createOk(owner);
    const behind = await createOk(other);
    const booked = await createOk(other);
    // Polling since long ago and never completed a poll: more than three 120 s intervals behind.
    const longAgo = new Date(Date.now() - 3_600_000);
    await t.db
      .updateTable('alerts')
      .set({ created_at: longAgo, active_since: longAgo })
      .where('id', 'in', [behind.id, booked.id])
      .execute();
    await t.db.updateTable('alerts').set({ status: 'BOOKED' }).where('id', '=', booked.id).execute();
    const res = await t.request({ method: 'GET', url: '/api/admin/registrations', token: admin.token });
    expect(res.statusCode).toBe(200);
    const rows = res.json<Answer<AdminAlert[]>>().data;
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(fresh.id)).toMatchObject({
      user: { email: owner.email, name: 'Olive Owner' },
      stale: false,
    });
    expect(byId.get(behind.id)).toMatchObject({ user: { email: other.email }, stale: true });
    expect(byId.get(booked.id)?.stale).toBe(false);
    // One staleness rule: the health figures count exactly the alerts the admin list flags.
    const flagged = rows.filter((r) => r.stale).length;
    expect(flagged).toBeGreaterThan(0);
    expect((await t.services.alertPolling.poolFigures()).stale).toBe(flagged);
    await t.db
      .updateTable('alerts')
      .set({ last_completed_at: new Date() })
      .where('id', '=', behind.id)
      .execute();
    const again = await t.request({ method: 'GET', url: '/api/admin/registrations', token: admin.token });
    expect(again.json<Answer<AdminAlert[]>>().data.find((r) => r.id === behind.id)?.stale).toBe(false);
  });

  it('sets any status on any alert, answering the new status; DISABLED stops polling', async () => {
    const alert = await createOk(owner);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
      body: { status: 'DISABLED' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Answer<Alert>>().data.status).toBe('DISABLED');
    expect(await scheduleOf(alert.id)).toEqual({ status: 'DISABLED', next_due_at: null });
    const bad = await t.request({
      method: 'PATCH',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
      body: { status: 'SNOOZED' },
    });
    expect(bad.json<ErrorBody>().message).toBe(m.statusInvalid);
  });

  it("edits another user's alert, checking services against the owner", async () => {
    const alert = await createOk(owner);
    const adminsService = await insertService(t, admin.id);
    const refused = await t.request({
      method: 'PATCH',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
      body: validPayload(templateId, { notificationServiceIds: [adminsService] }),
    });
    expect(refused.json<ErrorBody>().message).toBe(m.serviceNotAvailable);
    const ok = await t.request({
      method: 'PATCH',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
      body: validPayload(templateId, { title: 'Fixed by admin' }),
    });
    expect(ok.json<Answer<Alert>>().data).toMatchObject({ title: 'Fixed by admin', userId: owner.id });
    const read = await t.request({
      method: 'GET',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
    });
    expect(read.json<Answer<Alert>>().data.title).toBe('Fixed by admin');
  });

  it('deletes any alert', async () => {
    const alert = await createOk(owner);
    const res = await t.request({
      method: 'DELETE',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
    });
    expect(res.statusCode).toBe(204);
    const gone = await t.request({
      method: 'DELETE',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
    });
    expect(gone.statusCode).toBe(404);
  });
});
