import { expect, inject } from 'vitest';
import { type Account, createAccount } from './accounts.ts';

/** Calls the REST API as `token` and answers its `data` (what an integrator would do). */
export async function api<T>(token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${inject('baseUrl')}/api${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.ok, `${method} ${path}: ${res.status} ${text}`).toBe(true);
  return (text ? (JSON.parse(text) as { data: T }).data : undefined) as T;
}

export async function tokenOf(account: Account): Promise<string> {
  const result = await api<{ tokens: { accessToken: string } }>(null, 'POST', '/auth/login', {
    email: account.email,
    password: account.password,
  });
  return result.tokens.accessToken;
}

/** YYYY-MM-DD, `days` from today. */
export function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export interface SeededTemplate {
  id: string;
  name: string;
  groupId: string;
  groupName: string;
}

/**
 * A template on the simulator, made by a fresh admin through the API, for journeys that start from
 * an existing template: check-in and check-out dates to override, and a price rule with an input.
 */
export async function seedTemplate(
  label: string,
  options: { targetUrl?: string } = {},
): Promise<SeededTemplate> {
  const admin = await createAccount('Seeder', ['user', 'admin']);
  const token = await tokenOf(admin);
  const { tag } = admin;
  const group = await api<{ id: string; name: string }>(token, 'POST', '/template-groups', {
    name: `${label} group ${tag}`,
  });
  const template = await api<{ id: string; name: string }>(token, 'POST', '/templates', {
    name: `${label} ${tag}`,
    description: 'Rooms from the loopback resort simulator.',
    resortCode: 'SIM',
    templateGroupId: group.id,
    targetUrl: options.targetUrl ?? `${inject('simulatorUrl')}/availability`,
    method: 'GET',
    pollingIntervalSeconds: 10,
    defaultQuery: { resort: 'SIM', adults: 2 },
    editableFields: [
      {
        target: 'QUERY',
        path: 'checkIn',
        label: 'Check-in',
        fieldType: 'DATE',
        required: true,
        defaultValue: dayFromToday(30),
      },
      {
        target: 'QUERY',
        path: 'checkOut',
        label: 'Check-out',
        fieldType: 'DATE',
        required: true,
        defaultValue: dayFromToday(33),
      },
    ],
    responseWatchPresets: {
      notifyOn: 'everyMatch',
      any: [
        {
          id: 'price',
          label: 'Nightly price at most',
          condition: { path: 'rooms[*].price', operator: 'lte' },
          input: { type: 'number', label: 'Max price', required: true, defaultValue: 450 },
          defaultEnabled: true,
        },
      ],
    },
  });
  return { id: template.id, name: template.name, groupId: group.id, groupName: group.name };
}
