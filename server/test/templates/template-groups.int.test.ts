import { templateGroupMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
  user = await createUser(t);
});
afterAll(() => t.close());

interface Group {
  id: string;
  name: string;
  description: string | null;
  displayOrder: number;
  createdAt: string;
}

async function createGroup(body: unknown, token = admin.token) {
  return t.request({ method: 'POST', url: '/api/template-groups', token, body });
}

function firstMessage(res: { json<T>(): T }) {
  return res.json<{ message: string }>().message;
}

describe('template groups', () => {
  it('creates a group (201) with defaults, and lists groups by display order then name', async () => {
    const created = await createGroup({ name: '  Moderate Resorts ', description: 'Mid-range' });
    expect(created.statusCode).toBe(201);
    const group = created.json<{ data: Group }>().data;
    expect(group).toMatchObject({ name: 'Moderate Resorts', description: 'Mid-range', displayOrder: 0 });
    expect(new Date(group.createdAt).toISOString()).toBe(group.createdAt);

    await createGroup({ name: 'Deluxe Resorts', displayOrder: 0 });
    await createGroup({ name: 'value resorts', displayOrder: 2 });
    await createGroup({ name: 'Parties', displayOrder: 1 });

    const list = await t.request({ method: 'GET', url: '/api/template-groups', token: user.token });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: Group[] }>().data.map((g) => g.name)).toEqual([
      'Deluxe Resorts',
      'Moderate Resorts',
      'Parties',
      'value resorts',
    ]);
  });

  it('answers each validation message', async () => {
    const cases: [unknown, string][] = [
      [{}, templateGroupMessages.nameRequired],
      [{ name: '   ' }, templateGroupMessages.nameEmpty],
      [{ name: 'X', displayOrder: -1 }, templateGroupMessages.displayOrder],
      [{ name: 'X', displayOrder: 1.5 }, templateGroupMessages.displayOrder],
      [{ name: 'X', displayOrder: '3' }, templateGroupMessages.displayOrder],
    ];
    for (const [body, message] of cases) {
      const res = await createGroup(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(firstMessage(res)).toBe(message);
    }
    expect(templateGroupMessages.nameEmpty).toBe('Template group name cannot be empty.');
  });

  it('refuses a second group with the same name, whatever its case (409)', async () => {
    await createGroup({ name: 'Water Parks' });
    const again = await createGroup({ name: 'WATER PARKS' });
    expect(again.statusCode).toBe(409);
    expect(firstMessage(again)).toBe(templateGroupMessages.nameTaken('WATER PARKS'));
  });

  it('updates a group, and an update needs at least one field', async () => {
    const group = (await createGroup({ name: 'Seasonal' })).json<{ data: Group }>().data;
    const empty = await t.request({
      method: 'PATCH',
      url: `/api/template-groups/${group.id}`,
      token: admin.token,
      body: {},
    });
    expect(empty.statusCode).toBe(400);
    expect(firstMessage(empty)).toBe('At least one field is required to update the group');

    const updated = await t.request({
      method: 'PATCH',
      url: `/api/template-groups/${group.id}`,
      token: admin.token,
      body: { name: 'Seasonal Events', displayOrder: 7 },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json<{ data: Group }>().data).toMatchObject({ name: 'Seasonal Events', displayOrder: 7 });

    const blank = await t.request({
      method: 'PATCH',
      url: `/api/template-groups/${group.id}`,
      token: admin.token,
      body: { name: '' },
    });
    expect(firstMessage(blank)).toBe(templateGroupMessages.nameEmpty);
  });

  it('deletes a group (204) and answers 404 for unknown or malformed ids', async () => {
    const group = (await createGroup({ name: 'Temporary' })).json<{ data: Group }>().data;
    const del = await t.request({
      method: 'DELETE',
      url: `/api/template-groups/${group.id}`,
      token: admin.token,
    });
    expect(del.statusCode).toBe(204);
    const again = await t.request({
      method: 'DELETE',
      url: `/api/template-groups/${group.id}`,
      token: admin.token,
    });
    expect(again.statusCode).toBe(404);
    expect(firstMessage(again)).toBe(templateGroupMessages.notFound);
    const malformed = await t.request({
      method: 'PATCH',
      url: '/api/template-groups/nope',
      token: admin.token,
      body: { name: 'x' },
    });
    expect(malformed.statusCode).toBe(404);
  });

  it('lets only admins write (403), and only signed-in users read (401)', async () => {
    const group = (await createGroup({ name: 'Guarded' })).json<{ data: Group }>().data;
    const writes = [
      createGroup({ name: 'Nope' }, user.token),
      t.request({
        method: 'PATCH',
        url: `/api/template-groups/${group.id}`,
        token: user.token,
        body: { name: 'x' },
      }),
      t.request({ method: 'DELETE', url: `/api/template-groups/${group.id}`, token: user.token }),
    ];
    for (const res of await Promise.all(writes)) expect(res.statusCode).toBe(403);
    const anonymous = await t.request({ method: 'GET', url: '/api/template-groups' });
    expect(anonymous.statusCode).toBe(401);
    const still = await t.request({
      method: 'GET',
      url: `/api/template-groups/${group.id}`,
      token: user.token,
    });
    expect(still.json<{ data: Group }>().data.name).toBe('Guarded');
  });

  it('works the same over tRPC', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/templateGroups.create',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      payload: { name: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).toBe(templateGroupMessages.nameEmpty);
  });
});
