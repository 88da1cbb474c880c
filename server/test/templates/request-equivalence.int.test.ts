import {
  defaultOverrides,
  type EditableFieldInput,
  readEditableFields,
  type TemplateTestResult,
} from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineFromServices } from '../../src/engine/start-engine.ts';
import { waitFor } from '../engine/engine-fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startUpstream, type TestUpstream } from '../helpers/outbound-upstream.ts';
import { createTemplate } from './fixtures.ts';

/**
 * The template live test, the alert test and the engine build an alert's request by one conversion
 * of the stored template: for the same alert, the loopback upstream receives the same request from
 * all three (method, path and query, headers, body).
 */
let t: TestApp;
let upstream: TestUpstream;
let admin: TestUser;
let planner: TestUser;

beforeAll(async () => {
  upstream = await startUpstream();
  t = await startTestApp({
    boss: true,
    env: { OUTBOUND_ALLOWLIST: '127.0.0.1', ENGINE_TICK_MS: '50', ENGINE_LOOKAHEAD_MS: '200' },
  });
  admin = await createUser(t, { role: 'admin' });
  planner = await createUser(t);
});

afterAll(async () => {
  await t?.close();
  await upstream?.close();
});

const checkIn = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);

/** Listed out of display order, with a repeatable field sized by a count field, on every target. */
const fields: EditableFieldInput[] = [
  {
    target: 'BODY',
    path: 'party.childAges',
    label: 'Child ages',
    fieldType: 'NUMBER',
    defaultValue: [8, 7],
    options: { repeatable: true, repeatCountField: { target: 'BODY', path: 'party.children' } },
    displayOrder: 3,
  },
  {
    target: 'BODY',
    path: 'party.children',
    label: 'Children',
    fieldType: 'NUMBER',
    defaultValue: 2,
    displayOrder: 2,
  },
  {
    target: 'BODY',
    path: 'party.adults',
    label: 'Adults',
    fieldType: 'NUMBER',
    defaultValue: 2,
    displayOrder: 1,
  },
  {
    target: 'BODY',
    path: 'stay.checkIn',
    label: 'Check-in',
    fieldType: 'DATE',
    defaultValue: checkIn,
    displayOrder: 0,
  },
  {
    target: 'QUERY',
    path: 'currency',
    label: 'Currency',
    fieldType: 'SELECT',
    defaultValue: 'EUR',
    options: [{ value: 'USD', label: 'US dollar' }, 'EUR'],
    displayOrder: 4,
  },
  {
    target: 'HEADERS',
    path: 'x-channel',
    label: 'Channel',
    fieldType: 'STRING',
    defaultValue: 'web',
    displayOrder: 5,
  },
];

const rule = { all: [{ path: 'rooms[*].price', operator: 'lte', value: 300 }] };

async function postAs(user: TestUser, url: string, body: unknown, status: number) {
  const res = await t.request({ method: 'POST', url, token: user.token, body });
  expect(res.statusCode, res.body).toBe(status);
}

/** What the upstream received, as comparable values. */
function received(from: number) {
  return upstream.seen.slice(from).map((s) => {
    const { host, connection, ...headers } = s.headers;
    return { method: s.method, url: s.url, headers, body: s.body };
  });
}

describe('one conversion from a stored template to the request template', { timeout: 60_000 }, () => {
  it('the template live test, the alert test and the engine send the same request for the same alert', async () => {
    const template = await createTemplate(t, admin, {
      targetUrl: `${upstream.base}/json`,
      editableFields: fields as never,
    });
    // A field stored before today's rules (an empty label): every path leaves it out alike.
    await t.db
      .updateTable('templates')
      .set({
        editable_fields: JSON.stringify([
          ...template.editableFields,
          { target: 'QUERY', path: 'promo', label: '', fieldType: 'STRING', defaultValue: 'LEGACY' },
        ]),
      })
      .where('id', '=', template.id)
      .execute();

    // The alert that keeps the template's defaults: what the live test builds with.
    const asDefaults = {
      templateId: template.id,
      title: 'Defaults',
      overrides: defaultOverrides(readEditableFields(template.editableFields)),
      watchConfig: rule,
    };
    // An alert with values of its own: custom headers, query and body, and overrides.
    const customised = {
      templateId: template.id,
      title: 'Customised',
      customHeaders: { 'x-agent': 'planner' },
      customQuery: { page: 2 },
      customBody: { stay: { nights: 4 } },
      overrides: {
        body: { 'party.adults': 3, 'party.children': 1, 'party.childAges': [5, 9] },
        query: { currency: 'USD' },
        headers: { 'x-channel': 'app' },
      },
      watchConfig: rule,
    };

    // 1. The template live test (the saved template, override fields at their defaults).
    let from = upstream.seen.length;
    const live = await t.request({
      method: 'POST',
      url: `/api/templates/${template.id}/test`,
      token: admin.token,
      body: {},
    });
    expect(live.statusCode, live.body).toBe(200);
    const liveResult = live.json<{ data: TemplateTestResult }>().data;
    expect(liveResult.error).toBeNull();
    const [fromLive] = received(from);
    expect(liveResult.request.url).toBe(`${upstream.base}/json?currency=EUR`);
    expect(liveResult.request.body).toEqual({
      resortCode: 'POLY',
      stay: { checkIn },
      party: { adults: 2, children: 2, childAges: [8, 7] },
    });

    // 2. The alert test, for both alerts.
    from = upstream.seen.length;
    for (const payload of [asDefaults, customised])
      await postAs(planner, '/api/registrations/test', payload, 200);
    const [probeDefaults, probeCustomised] = received(from);
    expect(probeDefaults).toEqual(fromLive);
    expect(probeCustomised).not.toEqual(probeDefaults);

    // 3. The engine, polling the two alerts saved with the same values.
    for (const payload of [asDefaults, customised]) await postAs(planner, '/api/registrations', payload, 201);
    from = upstream.seen.length;
    const engine = createEngineFromServices(t.services);
    await engine.start();
    try {
      await waitFor(() => upstream.seen.length - from >= 2, { what: 'the engine to poll both alerts' });
    } finally {
      await engine.stop();
    }
    const polled = received(from);
    expect(polled).toContainEqual(probeDefaults);
    expect(polled).toContainEqual(probeCustomised);
  });
});
