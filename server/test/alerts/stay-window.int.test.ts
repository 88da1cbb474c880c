import type { Alert, Template } from '@resort/shared';
import { MAX_STAYS_PER_ALERT, stayWindowMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  type Answer,
  createAlert,
  type ErrorBody,
  editableFields,
  isoDay,
  presets,
  validPayload,
} from './fixtures.ts';

/**
 * Stay windows over REST: a template names its stay fields, an alert carries `stayWindow` instead of
 * fixed dates, and validation counts the stays against the cap.
 */
let t: TestApp;
let admin: TestUser;
let planner: TestUser;
let stayTemplate: Template;

const fields = [
  ...editableFields,
  { target: 'QUERY', path: 'departure', label: 'Departure', fieldType: 'DATE' },
];
const stay = {
  checkIn: { target: 'QUERY', path: 'arrival' },
  checkOut: { target: 'QUERY', path: 'departure' },
  bookingUrl: 'https://resort.example/book?in={checkIn}&out={checkOut}&adults={adults}',
};

const templateBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Beach Club stays',
  resortCode: 'BC',
  targetUrl: 'https://upstream.example.com/availability',
  method: 'GET',
  editableFields: fields,
  responseWatchPresets: presets,
  stay,
  ...extra,
});

const window = {
  start: isoDay(40),
  end: isoDay(70),
  minNights: 4,
  maxNights: 5,
  arrivalWeekdays: ['thu', 'fri', 'sat'],
};

/** The window payload: no arrival date of its own (the window sets it, stay by stay). */
const windowPayload = (templateId: string, stayWindow: unknown) => {
  const payload = validPayload(templateId, { stayWindow });
  const { arrival: _arrival, ...query } = payload.overrides.query;
  return { ...payload, overrides: { ...payload.overrides, query } };
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
  planner = await createUser(t);
  const res = await t.request({
    method: 'POST',
    url: '/api/templates',
    token: admin.token,
    body: templateBody(),
  });
  expect(res.statusCode, res.body).toBe(201);
  stayTemplate = res.json<Answer<Template>>().data;
});
afterAll(() => t.close());

describe('templates declare their stay', () => {
  it('keeps and answers the stay', async () => {
    expect(stayTemplate.stay).toEqual(stay);
    const read = await t.request({
      method: 'GET',
      url: `/api/templates/${stayTemplate.id}`,
      token: planner.token,
    });
    expect(read.json<Answer<Template>>().data.stay).toEqual(stay);
  });

  it('refuses a stay whose fields are not DATE/NUMBER fields of the template', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/templates',
      token: admin.token,
      body: templateBody({
        stay: { checkIn: { target: 'QUERY', path: 'arrival' }, nights: { target: 'QUERY', path: 'arrival' } },
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().issues?.map((i) => i.message)).toContain(
      stayWindowMessages.stayFieldType('nights', 'NUMBER'),
    );
  });
});

describe('alerts carry a stay window', () => {
  it('creates a window alert and answers its windows', async () => {
    const res = await createAlert(t, planner, windowPayload(stayTemplate.id, [window]));
    expect(res.statusCode, res.body).toBe(201);
    const alert = res.json<Answer<Alert>>().data;
    expect(alert.stayWindow).toEqual([window]);
    const read = await t.request({
      method: 'GET',
      url: `/api/registrations/${alert.id}`,
      token: planner.token,
    });
    expect(read.json<Answer<Alert>>().data.stayWindow).toEqual([window]);
  });

  it('keeps fixed dates working unchanged (stayWindow null)', async () => {
    const res = await createAlert(t, planner, validPayload(stayTemplate.id));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Answer<Alert>>().data.stayWindow).toBeNull();
  });

  it('refuses more stays than the cap with a message naming the count and the cap', async () => {
    const wide = { start: isoDay(10), end: isoDay(100), minNights: 1, maxNights: 10 };
    const res = await createAlert(t, planner, windowPayload(stayTemplate.id, [wide]));
    expect(res.statusCode).toBe(400);
    const issue = res.json<ErrorBody>().issues?.find((i) => i.path === 'stayWindow');
    expect(issue?.message).toMatch(
      new RegExp(`^This window means \\d+ stays; an alert can watch at most ${MAX_STAYS_PER_ALERT}\\.`),
    );
  });

  it('refuses a malformed window with its own message', async () => {
    const res = await createAlert(t, planner, windowPayload(stayTemplate.id, [{ ...window, maxNights: 2 }]));
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message + JSON.stringify(res.json<ErrorBody>().issues)).toContain(
      stayWindowMessages.maxBelowMin,
    );
  });

  it('refuses a window on a template without a stay', async () => {
    const plain = await t.request({
      method: 'POST',
      url: '/api/templates',
      token: admin.token,
      body: templateBody({ name: 'No stay', stay: null }),
    });
    const res = await createAlert(
      t,
      planner,
      windowPayload(plain.json<Answer<Template>>().data.id, [window]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().issues).toContainEqual({
      path: 'stayWindow',
      message: stayWindowMessages.templateHasNoStay,
    });
  });

  it('is described in the OpenAPI document', async () => {
    type Doc = {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<Doc>();
    const bodyOf = (path: string) => {
      const ref = doc.paths[path]!.post!.requestBody!.content['application/json']!.schema.$ref;
      return doc.components.schemas[ref.split('/').pop()!]!;
    };
    expect(doc.components.schemas.Registration?.properties).toHaveProperty('stayWindow');
    expect(doc.components.schemas.Template?.properties).toHaveProperty('stay');
    expect(bodyOf('/api/registrations').properties).toHaveProperty('stayWindow');
    expect(bodyOf('/api/templates').properties).toHaveProperty('stay');
  });
});
