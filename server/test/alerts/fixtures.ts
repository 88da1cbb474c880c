import { randomBytes } from 'node:crypto';
import type { Alert } from '@resort/shared';
import { expect } from 'vitest';
import type { TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';

export type Answer<T> = { data: T };
export type ErrorBody = { message: string; code: string; issues?: { path: string; message: string }[] };

/** A date `days` from today as YYYY-MM-DD. */
export function isoDay(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export const presets = {
  notifyOn: 'everyMatch',
  all: [
    {
      id: 'price',
      label: 'Price at most',
      condition: { path: 'rooms[*].price', operator: 'lte' },
      input: { type: 'number', label: 'Max price', required: true },
      defaultEnabled: true,
    },
    {
      id: 'club',
      label: 'Club level',
      condition: { path: 'club', operator: 'equals' },
      input: { type: 'boolean', label: 'Club' },
    },
  ],
  any: [
    {
      id: 'open',
      label: 'Any room open',
      condition: { path: 'rooms[*].status', operator: 'equals', value: 'OPEN' },
    },
  ],
};

export const editableFields = [
  { target: 'QUERY', path: 'arrival', label: 'Arrival', fieldType: 'DATE', required: true },
  {
    target: 'QUERY',
    path: 'extraNights',
    label: 'Extra nights',
    fieldType: 'DATE',
    options: { repeatable: true },
  },
  {
    target: 'BODY',
    path: 'party.adults',
    label: 'Adults',
    fieldType: 'NUMBER',
    required: true,
    defaultValue: 2,
  },
  { target: 'BODY', path: 'party.children', label: 'Children', fieldType: 'NUMBER', defaultValue: 0 },
  {
    target: 'BODY',
    path: 'party.childAges',
    label: 'Child ages',
    fieldType: 'NUMBER',
    required: true,
    options: { repeatable: true, repeatCountField: { target: 'BODY', path: 'party.children' } },
  },
  {
    target: 'BODY',
    path: 'rooms',
    label: 'Rooms',
    fieldType: 'STRING',
    required: true,
    options: { repeatable: true },
  },
];

/** Inserts a template row directly (the templates API is another module's). */
export async function insertTemplate(
  t: TestApp,
  values: {
    name?: string;
    targetUrl?: string;
    method?: string;
    isActive?: boolean;
    presets?: unknown;
    editableFields?: unknown;
    defaultHeaders?: Record<string, string>;
    defaultQuery?: Record<string, string | number | boolean>;
    defaultBody?: unknown;
    pollingIntervalSeconds?: number;
    templateGroupId?: string | null;
    /** The fields that carry the stay (flexible dates). */
    stay?: unknown;
  } = {},
): Promise<string> {
  const row = await t.db
    .insertInto('templates')
    .values({
      name: values.name ?? `Resort ${randomBytes(3).toString('hex')}`,
      resort_code: 'GF',
      target_url: values.targetUrl ?? 'https://upstream.example.com/availability',
      method: values.method ?? 'POST',
      polling_interval_seconds: values.pollingIntervalSeconds ?? 60,
      default_headers: JSON.stringify(values.defaultHeaders ?? {}),
      default_query: JSON.stringify(values.defaultQuery ?? { currency: 'USD' }),
      default_body: JSON.stringify(values.defaultBody ?? { resort: 'GF' }),
      response_watch_presets: JSON.stringify(values.presets === undefined ? presets : values.presets),
      editable_fields: JSON.stringify(values.editableFields ?? editableFields),
      is_active: values.isActive ?? true,
      template_group_id: values.templateGroupId ?? null,
      stay: values.stay === undefined ? null : JSON.stringify(values.stay),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertService(
  t: TestApp,
  userId: string,
  values: { type?: string; isActive?: boolean } = {},
): Promise<string> {
  const row = await t.db
    .insertInto('notification_services')
    .values({
      user_id: userId,
      type: values.type ?? 'SLACK_WEBHOOK',
      label: 'Team channel',
      is_active: values.isActive ?? true,
      config: JSON.stringify({ url: 'https://hooks.slack.example.com/x' }),
      signing_secret: 'whsec_test',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A payload that passes every check against `insertTemplate`'s defaults. */
export function validPayload(templateId: string, extra: Record<string, unknown> = {}) {
  return {
    templateId,
    title: 'Spring break',
    partyName: 'The Parkers',
    tags: ['family', 'spring'],
    overrides: {
      query: { arrival: isoDay(30) },
      body: { 'party.adults': 2, 'party.children': 1, 'party.childAges': [7], rooms: ['DLX'] },
    },
    watchConfig: { all: [{ path: 'rooms[*].price', operator: 'lte', value: 300, presetId: 'price' }] },
    pollingIntervalSeconds: 120,
    ...extra,
  };
}

export function createAlert(t: TestApp, user: TestUser, body: unknown) {
  return t.request({ method: 'POST', url: '/api/registrations', token: user.token, body });
}

export async function createAlertOk(
  t: TestApp,
  user: TestUser,
  templateId: string,
  extra: Record<string, unknown> = {},
): Promise<Alert> {
  const res = await createAlert(t, user, validPayload(templateId, extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Answer<Alert>>().data;
}

/** The scheduling columns the engine reads. */
export function scheduleOf(t: TestApp, id: string) {
  return t.db
    .selectFrom('alerts')
    .select(['next_due_at', 'status'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}
