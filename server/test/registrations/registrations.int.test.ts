import { randomUUID } from 'node:crypto';
import type { AdminRegistration, Registration } from '@resort/shared';
import { fieldMessages, registrationMessages as m, watchMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { insertService, insertTemplate, isoDay, validPayload } from './fixtures.ts';

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

type Answer<T> = { data: T };
type ErrorBody = { message: string; code: string; issues?: { path: string; message: string }[] };

async function create(user: TestUser, body: unknown) {
  return t.request({ method: 'POST', url: '/api/registrations', token: user.token, body });
}

async function createOk(user: TestUser, extra: Record<string, unknown> = {}): Promise<Registration> {
  const res = await create(user, validPayload(templateId, extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Answer<Registration>>().data;
}

async function scheduleOf(id: string) {
  return t.db
    .selectFrom('registrations')
    .select(['next_due_at', 'status'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('POST /api/registrations', () => {
  it('creates the alert with the fields of SPEC.md §3 and schedules its first poll now', async () => {
    const before = Date.now();
    const emailService = (
      await t.db.selectFrom('notification_services').select('id').where('user_id', '=', owner.id).execute()
    )[0]!.id;
    const res = await create(owner, validPayload(templateId, { notificationServiceIds: [emailService] }));
    expect(res.statusCode).toBe(201);
    const alert = res.json<Answer<Registration>>().data;
    expect(alert).toMatchObject({
      status: 'ACTIVE',
      title: 'Spring break',
      partyName: 'The Parkers',
      tags: ['family', 'spring'],
      templateId,
      template: {
        name: 'Grand Floridian',
        defaultBody: { resort: 'GF' },
        defaultQuery: { currency: 'USD' },
        templateGroupId: null,
      },
      user: { email: owner.email, name: 'Olive Owner' },
      customHeaders: {},
      customQuery: {},
      customBody: null,
      pollingIntervalSeconds: 120,
      notificationServices: [
        { notificationServiceId: emailService, type: 'EMAIL', label: 'Primary Email Alerts', isActive: true },
      ],
      lastRunAt: null,
      lastNotifiedAt: null,
      watchConfig: { notifyOn: 'everyMatch', notifyOnResolved: false, debounceSeconds: 0 },
    });
    expect(alert.overrides.body).toEqual({
      'party.adults': 2,
      'party.children': 1,
      'party.childAges': [7],
      rooms: ['DLX'],
    });
    const row = await scheduleOf(alert.id);
    expect(row.next_due_at).not.toBeNull();
    expect(row.next_due_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.next_due_at!.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("defaults the interval to the template's", async () => {
    const payload: Record<string, unknown> = validPayload(templateId);
    delete payload.pollingIntervalSeconds;
    const res = await create(owner, payload);
    expect(res.json<Answer<Registration>>().data.pollingIntervalSeconds).toBe(60);
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/registrations',
      body: validPayload(templateId),
    });
    expect(res.statusCode).toBe(401);
  });

  const body = (patch: { query?: object; body?: object }) => ({
    query: { arrival: isoDay(30), ...patch.query },
    body: { 'party.adults': 2, 'party.children': 0, rooms: ['DLX'], ...patch.body },
  });
  const withRule = (value: unknown, presetId = 'price') => ({
    all: [{ path: 'x', operator: 'lte', value, presetId }],
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ['templateId missing', { templateId: undefined }, m.templateRequired],
    ['templateId empty', { templateId: '' }, m.templateRequired],
    ['title empty', { title: '' }, m.titleEmpty],
    ['partyName empty', { partyName: ' ' }, m.partyNameEmpty],
    ['a tag empty', { tags: ['ok', ''] }, m.tagEmpty],
    ['interval not a number', { pollingIntervalSeconds: 'often' }, m.pollingIntervalNumber],
    ['interval below 5', { pollingIntervalSeconds: 4 }, m.pollingIntervalRange],
    ['interval above 86400', { pollingIntervalSeconds: 86_401 }, m.pollingIntervalRange],
    ['interval not whole', { pollingIntervalSeconds: 30.5 }, m.pollingIntervalRange],
    ['query value an object', { customQuery: { a: { b: 1 } } }, m.queryValueType],
    ['no rule enabled', { watchConfig: { all: [], any: [] } }, m.ruleRequired],
    ['no watch config', { watchConfig: undefined }, m.ruleRequired],
    [
      'invalid regex',
      { watchConfig: { all: [{ path: 'a', operator: 'regex', value: '(' }] } },
      watchMessages.invalidRegex,
    ],
    ['required field empty', { overrides: body({ query: { arrival: '' } }) }, m.fieldRequired],
    ['repeatable field empty', { overrides: body({ body: { rooms: [] } }) }, m.atLeastOneValue],
    [
      'one linked entry missing',
      { overrides: body({ body: { 'party.children': 1, 'party.childAges': [] } }) },
      m.linkedEntry('Children'),
    ],
    [
      'linked entries missing',
      { overrides: body({ body: { 'party.children': 2, 'party.childAges': [5] } }) },
      m.linkedEntries(2, 'Children'),
    ],
    ['date in the past', { overrides: body({ query: { arrival: '2001-01-01' } }) }, m.dateInPast],
    [
      'dates in the past',
      { overrides: body({ query: { extraNights: [isoDay(40), '2001-01-02'] } }) },
      m.datesInPast,
    ],
    ['adults 0', { overrides: body({ body: { 'party.adults': 0 } }) }, m.adultsRange],
    ['adults 11', { overrides: body({ body: { 'party.adults': 11 } }) }, m.adultsRange],
    ['children 11', { overrides: body({ body: { 'party.children': 11 } }) }, m.childrenRange],
    [
      'child age 18',
      { overrides: body({ body: { 'party.children': 1, 'party.childAges': [18] } }) },
      m.childAgeRange,
    ],
    [
      'adults not numeric',
      { overrides: body({ body: { 'party.adults': 'two' } }) },
      fieldMessages.expectedNumeric,
    ],
    ['field not overridable', { overrides: body({ body: { secret: 1 } }) }, m.notOverridable],
    ['rule input not a number', { watchConfig: withRule('cheap') }, m.inputNumber('Max price')],
    ['rule input not boolean', { watchConfig: withRule('maybe', 'club') }, m.inputBoolean],
    [
      'required rule input empty',
      { watchConfig: withRule('') },
      m.inputRequired('Price at most', 'Max price'),
    ],
    ['unknown template', { templateId: randomUUID() }, m.templateUnavailable],
    ['malformed template id', { templateId: 'not-a-uuid' }, m.templateUnavailable],
  ];

  it.each(cases)('refuses %s with its message', async (_name, patch, message) => {
    const res = await create(owner, { ...validPayload(templateId), ...patch });
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json<ErrorBody>();
    expect(error.message).toBe(message);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.issues?.[0]?.message).toBe(message);
  });

  it('lists every template issue, each with its path', async () => {
    const res = await create(owner, {
      ...validPayload(templateId),
      overrides: body({ query: { arrival: '2001-01-01' }, body: { 'party.adults': 0 } }),
    });
    expect(res.json<ErrorBody>().issues).toEqual([
      { path: 'overrides.query.arrival', message: m.dateInPast },
      { path: 'overrides.body.party.adults', message: m.adultsRange },
    ]);
  });

  it("calls a template with broken rules 'misconfigured'", async () => {
    const broken = await insertTemplate(t, { presets: { all: [], any: [] } });
    const res = await create(owner, validPayload(broken));
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message).toBe(m.misconfigured);
  });

  it('refuses an inactive template', async () => {
    const inactive = await insertTemplate(t, { isActive: false });
    const res = await create(owner, validPayload(inactive));
    expect(res.json<ErrorBody>().message).toBe(m.templateUnavailable);
  });

  it("accepts only the caller's own active notification services", async () => {
    const othersService = await insertService(t, other.id);
    const inactive = await insertService(t, owner.id, { isActive: false });
    for (const id of [othersService, inactive, randomUUID(), 'nope']) {
      const res = await create(owner, validPayload(templateId, { notificationServiceIds: [id] }));
      expect(res.statusCode).toBe(400);
      expect(res.json<ErrorBody>().message).toBe(m.serviceNotAvailable);
    }
    const mine = await insertService(t, owner.id);
    const ok = await create(owner, validPayload(templateId, { notificationServiceIds: [mine, mine] }));
    expect(ok.statusCode).toBe(201);
    expect(
      ok.json<Answer<Registration>>().data.notificationServices.map((s) => s.notificationServiceId),
    ).toEqual([mine]);
  });
});

describe('GET /api/users/me/registrations and /api/registrations/{id}', () => {
  it("lists only the caller's alerts, newest first", async () => {
    const mine = await createOk(other, { title: 'Other first' });
    const second = await createOk(other, { title: 'Other second' });
    const res = await t.request({ method: 'GET', url: '/api/users/me/registrations', token: other.token });
    expect(res.statusCode).toBe(200);
    const list = res.json<Answer<Registration[]>>().data;
    expect(list.map((r) => r.id)).toEqual([second.id, mine.id]);
    const ownersList = await t.request({
      method: 'GET',
      url: '/api/users/me/registrations',
      token: owner.token,
    });
    expect(ownersList.json<Answer<Registration[]>>().data.some((r) => r.userId !== owner.id)).toBe(false);
  });

  it('puts the full alerts in the user summary', async () => {
    const alert = await createOk(owner);
    const res = await t.request({ method: 'GET', url: '/api/users/me', token: owner.token });
    const summary = res.json<Answer<{ registrations: Registration[] }>>().data;
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
    expect(mine.json<Answer<Registration>>().data.id).toBe(alert.id);
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
    const updated = res.json<Answer<Registration>>().data;
    expect(updated).toMatchObject({ id: alert.id, title: 'Summer', tags: [], status: 'ACTIVE' });
    expect(updated.notificationServices.map((s) => s.notificationServiceId)).toEqual([service]);
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
      expect(res.json<Answer<Registration>>().data.status).toBe(status);
      expect(await scheduleOf(alert.id)).toEqual({ status, next_due_at: null });
    }
    const res = await t.request({
      method: 'PATCH',
      url: `/api/registrations/${alert.id}`,
      token: owner.token,
      body: { status: 'ACTIVE' },
    });
    expect(res.json<Answer<Registration>>().data.status).toBe('ACTIVE');
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
    // Created long ago and never completed a poll: more than three 120 s intervals behind.
    const longAgo = new Date(Date.now() - 3_600_000);
    await t.db
      .updateTable('registrations')
      .set({ created_at: longAgo })
      .where('id', 'in', [behind.id, booked.id])
      .execute();
    await t.db.updateTable('registrations').set({ status: 'BOOKED' }).where('id', '=', booked.id).execute();
    const res = await t.request({ method: 'GET', url: '/api/admin/registrations', token: admin.token });
    expect(res.statusCode).toBe(200);
    const rows = res.json<Answer<AdminRegistration[]>>().data;
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(fresh.id)).toMatchObject({
      user: { email: owner.email, name: 'Olive Owner' },
      stale: false,
    });
    expect(byId.get(behind.id)).toMatchObject({ user: { email: other.email }, stale: true });
    expect(byId.get(booked.id)?.stale).toBe(false);
    await t.db
      .updateTable('registrations')
      .set({ last_completed_at: new Date() })
      .where('id', '=', behind.id)
      .execute();
    const again = await t.request({ method: 'GET', url: '/api/admin/registrations', token: admin.token });
    expect(again.json<Answer<AdminRegistration[]>>().data.find((r) => r.id === behind.id)?.stale).toBe(false);
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
    expect(res.json<Answer<Registration>>().data.status).toBe('DISABLED');
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
    expect(ok.json<Answer<Registration>>().data).toMatchObject({ title: 'Fixed by admin', userId: owner.id });
    const read = await t.request({
      method: 'GET',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
    });
    expect(read.json<Answer<Registration>>().data.title).toBe('Fixed by admin');
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
