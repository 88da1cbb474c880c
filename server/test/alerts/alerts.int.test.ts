import type { Alert } from '@resort/shared';
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
  isoDay,
  scheduleOf as scheduleOfRow,
  validPayload,
} from './fixtures.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let templateId: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createUser(t, { name: 'Olive Owner' });
  other = await createUser(t);
  templateId = await insertTemplate(t, { name: 'Grand Floridian' });
});
afterAll(() => t.close());

const createOk = (user: TestUser, extra: Record<string, unknown> = {}) =>
  createAlertOk(t, user, templateId, extra);
const scheduleOf = (id: string) => scheduleOfRow(t, id);

describe('GET /api/users/me/registrations and /api/registrations/{id}', () => {
  it("lists only the caller's alerts, newest first", async () => {
    const mine = await createOk(other, { title: 'Other first' });
    const second = await createOk(other, { title: 'Other second' });
    const res = await t.request({ method: 'GET', url: '/api/users/me/registrations', token: other.token });
    expect(res.statusCode).toBe(200);
    const list = res.json<Answer<Alert[]>>().data;
    expect(list.map((r) => r.id)).toEqual([second.id, mine.id]);
    const ownersList = await t.request({
      method: 'GET',
      url: '/api/users/me/registrations',
      token: owner.token,
    });
    expect(ownersList.json<Answer<Alert[]>>().data.some((r) => r.userId !== owner.id)).toBe(false);
  });

  it('puts the full alerts in the user summary', async () => {
    const alert = await createOk(owner);
    const res = await t.request({ method: 'GET', url: '/api/users/me', token: owner.token });
    const summary = res.json<Answer<{ registrations: Alert[] }>>().data;
    expect(summary.registrations.find((r) => r.id === alert.id)).toMatchObject({
      template: { name: 'Grand Floridian' },
    });
  });

  it("reads one alert, and answers 404 for another user's or a malformed id", async () => {
    const alert = await createOk(owner);
    const mine = await t.request({
      method: 'GET',
      url: `/api/registrations/${alert.id}`,
      token: owner.token,
    });
    expect(mine.json<Answer<Alert>>().data.id).toBe(alert.id);
    const theirs = await t.request({
      method: 'GET',
      url: `/api/registrations/${alert.id}`,
      token: other.token,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<ErrorBody>()).toEqual({ message: m.notFound, code: 'NOT_FOUND' });
    const bad = await t.request({ method: 'GET', url: '/api/registrations/123', token: owner.token });
    expect(bad.statusCode).toBe(404);
  });
});

describe('PATCH /api/registrations/{id}', () => {
  it('replaces the alert with a full payload', async () => {
    const alert = await createOk(owner);
    const service = await insertService(t, owner.id);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/registrations/${alert.id}`,
      token: owner.token,
      body: validPayload(templateId, { title: 'Summer', tags: [], notificationServiceIds: [service] }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json<Answer<Alert>>().data;
    expect(updated).toMatchObject({ id: alert.id, title: 'Summer', tags: [], status: 'ACTIVE' });
    expect(updated.notificationServices.map((s) => s.notificationServiceId)).toEqual([service]);
  });

  it('keeps the schedule and baseline for a cosmetic edit, restarts them when the request changes', async () => {
    const alert = await createOk(owner);
    const later = new Date(Date.now() + 3_600_000);
    const keep = () =>
      t.db
        .updateTable('alerts')
        .set({ next_due_at: later, last_values: JSON.stringify({ count: 1 }) })
        .where('id', '=', alert.id)
        .execute();
    const state = () =>
      t.db
        .selectFrom('alerts')
        .select(['next_due_at', 'last_values'])
        .where('id', '=', alert.id)
        .executeTakeFirstOrThrow();
    const patch = (body: unknown) =>
      t.request({ method: 'PATCH', url: `/api/registrations/${alert.id}`, token: owner.token, body });
    await keep();
    await patch(validPayload(templateId, { title: 'Renamed only' }));
    expect(await state()).toEqual({ next_due_at: later, last_values: { count: 1 } });
    const changed = validPayload(templateId);
    changed.overrides.query.arrival = isoDay(45);
    expect((await patch(changed)).statusCode).toBe(200);
    const after = await state();
    expect(after.last_values).toBeNull();
    expect(after.next_due_at!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('validates a full payload like a create', async () => {
    const alert = await createOk(owner);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/registrations/${alert.id}`,
      token: owner.token,
      body: { title: 'Only a title' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message).toBe(m.templateRequired);
  });

  it('changes the status alone and answers with the new status; BOOKED and PASSED stop polling', async () => {
    const alert = await createOk(owner);
    for (const status of ['BOOKED', 'PASSED'] as const) {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/registrations/${alert.id}`,
        token: owner.token,
        body: { status },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<Answer<Alert>>().data.status).toBe(status);
      expect(await scheduleOf(alert.id)).toEqual({ status, next_due_at: null });
    }
    const res = await t.request({
      method: 'PATCH',
      url: `/api/registrations/${alert.id}`,
      token: owner.token,
      body: { status: 'ACTIVE' },
    });
    expect(res.json<Answer<Alert>>().data.status).toBe('ACTIVE');
    // Re-activated: due for a poll right away.
    const row = await scheduleOf(alert.id);
    expect(row.next_due_at).not.toBeNull();
    expect(row.next_due_at!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('lets a user set only ACTIVE, BOOKED or PASSED', async () => {
    const alert = await createOk(owner);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/registrations/${alert.id}`,
      token: owner.token,
      body: { status: 'DISABLED' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message).toBe(m.statusNotAllowed);
  });

  it("answers 404 for another user's alert and leaves it alone", async () => {
    const alert = await createOk(owner);
    const res = await t.request({
      method: 'PATCH',
      url: `/api/registrations/${alert.id}`,
      token: other.token,
      body: { status: 'PASSED' },
    });
    expect(res.statusCode).toBe(404);
    expect((await scheduleOf(alert.id)).status).toBe('ACTIVE');
  });
});

describe('DELETE /api/registrations/{id}', () => {
  it("removes the caller's alert with 204, and answers 404 for another user's", async () => {
    const alert = await createOk(owner);
    const theirs = await t.request({
      method: 'DELETE',
      url: `/api/registrations/${alert.id}`,
      token: other.token,
    });
    expect(theirs.statusCode).toBe(404);
    const res = await t.request({
      method: 'DELETE',
      url: `/api/registrations/${alert.id}`,
      token: owner.token,
    });
    expect(res.statusCode).toBe(204);
    const again = await t.request({
      method: 'GET',
      url: `/api/registrations/${alert.id}`,
      token: owner.token,
    });
    expect(again.statusCode).toBe(404);
  });
});
