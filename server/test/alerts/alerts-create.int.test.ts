import { randomUUID } from 'node:crypto';
import type { Alert } from '@resort/shared';
import { fieldMessages, alertMessages as m, watchMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  type Answer,
  createAlert,
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

const create = (user: TestUser, body: unknown) => createAlert(t, user, body);
const scheduleOf = (id: string) => scheduleOfRow(t, id);

describe('POST /api/registrations', () => {
  it('creates the alert with its fields and schedules its first poll now', async () => {
    const before = Date.now();
    const emailService = (
      await t.db.selectFrom('notification_services').select('id').where('user_id', '=', owner.id).execute()
    )[0]!.id;
    const res = await create(owner, validPayload(templateId, { notificationServiceIds: [emailService] }));
    expect(res.statusCode).toBe(201);
    const alert = res.json<Answer<Alert>>().data;
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
    expect(res.json<Answer<Alert>>().data.pollingIntervalSeconds).toBe(60);
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
    expect(ok.json<Answer<Alert>>().data.notificationServices.map((s) => s.notificationServiceId)).toEqual([
      mine,
    ]);
  });
});
