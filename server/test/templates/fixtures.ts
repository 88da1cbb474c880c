import type { Template, TemplateCreateInputRaw } from '@resort/shared';
import type { TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';

/** A complete, valid template payload; tests change one thing at a time. */
export function templatePayload(overrides: Partial<TemplateCreateInputRaw> = {}): TemplateCreateInputRaw {
  return {
    name: 'Polynesian room availability',
    description: 'Nightly availability for the Polynesian',
    resortCode: 'POLY',
    targetUrl: 'https://upstream.example.com/api/availability/rooms',
    method: 'POST',
    pollingIntervalSeconds: 120,
    defaultHeaders: { accept: 'application/json', 'x-api-key': 'upstream-secret' },
    defaultQuery: { currency: 'USD' },
    defaultBody: {
      resortCode: 'POLY',
      stay: { checkIn: '2027-03-01' },
      party: { adults: 2, children: 0, childAges: [] },
    },
    editableFields: [
      { target: 'BODY', path: 'stay.checkIn', label: 'Check-in', fieldType: 'DATE', required: true },
      { target: 'BODY', path: 'party.adults', label: 'Adults', fieldType: 'NUMBER', defaultValue: 2 },
      { target: 'BODY', path: 'party.children', label: 'Children', fieldType: 'NUMBER', defaultValue: 0 },
      {
        target: 'BODY',
        path: 'party.childAges',
        label: 'Child ages',
        fieldType: 'NUMBER',
        options: { repeatable: true, repeatCountField: { target: 'BODY', path: 'party.children' } },
      },
      {
        target: 'QUERY',
        path: 'currency',
        label: 'Currency',
        fieldType: 'SELECT',
        options: [{ value: 'USD', label: 'US dollar' }, 'EUR'],
      },
    ],
    responseWatchPresets: {
      debounceSeconds: 60,
      groups: [{ id: 'availability', label: 'Availability' }],
      any: [
        {
          id: 'room-available',
          label: 'A room is available',
          group: 'availability',
          condition: { path: 'rooms[*].available', operator: 'equals', value: true },
        },
        {
          id: 'price-at-most',
          label: 'Price at most',
          condition: { path: 'rooms[*].price', operator: 'lte' },
          input: { type: 'number', label: 'Maximum price', required: true },
        },
      ],
    },
    ...overrides,
  };
}

export async function createTemplate(
  t: TestApp,
  admin: TestUser,
  overrides: Partial<TemplateCreateInputRaw> = {},
): Promise<Template> {
  const res = await t.request({
    method: 'POST',
    url: '/api/templates',
    token: admin.token,
    body: templatePayload(overrides),
  });
  if (res.statusCode !== 201) throw new Error(`create template failed: ${res.statusCode} ${res.body}`);
  return res.json<{ data: Template }>().data;
}

/** An alert row using the template, written directly: the alerts module is not under test here. */
export async function insertAlertUsing(t: TestApp, userId: string, templateId: string): Promise<void> {
  await t.db
    .insertInto('alerts')
    .values({
      user_id: userId,
      template_id: templateId,
      custom_headers: '{}',
      custom_query: '{}',
      overrides: '{}',
      watch_config: JSON.stringify({ all: [], any: [] }),
      polling_interval_seconds: 60,
    })
    .execute();
}
