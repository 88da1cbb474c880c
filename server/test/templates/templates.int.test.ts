import { type Template, type TemplateCreateInputRaw, templateMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/receivers.ts';
import { createTemplate, insertAlertUsing, templatePayload } from './fixtures.ts';

let t: TestApp;
let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
  user = await createUser(t);
});
afterAll(() => t.close());

const message = (res: { json<T>(): T }) => res.json<{ message: string }>().message;

async function createGroup(name: string, displayOrder = 0): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/template-groups',
    token: admin.token,
    body: { name, displayOrder },
  });
  return res.json<{ data: { id: string } }>().data.id;
}

describe('creating and reading templates', () => {
  it('creates a template (201) and answers the template shape', async () => {
    const groupId = await createGroup('Deluxe', 3);
    const res = await t.request({
      method: 'POST',
      url: '/api/templates',
      token: admin.token,
      body: templatePayload({ templateGroupId: groupId }),
    });
    expect(res.statusCode).toBe(201);
    const template = res.json<{ data: Template }>().data;
    expect(Object.keys(template).sort()).toEqual(
      [
        'id',
        'name',
        'description',
        'resortCode',
        'templateGroupId',
        'templateGroup',
        'targetUrl',
        'method',
        'pollingIntervalSeconds',
        'defaultHeaders',
        'defaultQuery',
        'defaultBody',
        'responseWatchConfig',
        'responseWatchPresets',
        'isActive',
        'editableFields',
        'stay',
        'createdAt',
      ].sort(),
    );
    expect(template).toMatchObject({
      name: 'Polynesian room availability',
      resortCode: 'POLY',
      templateGroupId: groupId,
      templateGroup: { name: 'Deluxe', displayOrder: 3 },
      method: 'POST',
      pollingIntervalSeconds: 120,
      defaultQuery: { currency: 'USD' },
      defaultBody: { party: { adults: 2, childAges: [] } },
      isActive: true,
      responseWatchConfig: null,
    });
    // Plain SELECT options are stored as value/label pairs; preset defaults are filled in.
    expect(template.editableFields[4]?.options).toEqual([
      { value: 'USD', label: 'US dollar' },
      { value: 'EUR', label: 'EUR' },
    ]);
    expect(template.responseWatchPresets).toMatchObject({
      notifyOn: 'everyMatch',
      debounceSeconds: 60,
      all: [],
    });
    expect(new Date(template.createdAt).toISOString()).toBe(template.createdAt);

    const got = await t.request({ method: 'GET', url: `/api/templates/${template.id}`, token: admin.token });
    expect(got.json<{ data: Template }>().data).toEqual(template);
  });

  it('fills the defaults: method POST, polling 60 s, active, no fields, no group', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/templates',
      token: admin.token,
      body: { name: 'Minimal', resortCode: 'MIN', targetUrl: 'https://upstream.example.com/x' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: Template }>().data).toMatchObject({
      method: 'POST',
      pollingIntervalSeconds: 60,
      isActive: true,
      editableFields: [],
      defaultHeaders: {},
      defaultQuery: {},
      defaultBody: null,
      responseWatchPresets: null,
      templateGroupId: null,
      templateGroup: null,
      description: null,
    });
  });
});

describe('updating templates', () => {
  it('changes only the fields sent, and can clear the group', async () => {
    const groupId = await createGroup('Value');
    const template = await createTemplate(t, admin, { templateGroupId: groupId });
    const res = await t.request({
      method: 'PATCH',
      url: `/api/templates/${template.id}`,
      token: admin.token,
      body: { name: 'Renamed', isActive: false, templateGroupId: null, defaultBody: null },
    });
    expect(res.statusCode).toBe(200);
    const updated = res.json<{ data: Template }>().data;
    expect(updated).toEqual({
      ...template,
      name: 'Renamed',
      isActive: false,
      templateGroupId: null,
      templateGroup: null,
      defaultBody: null,
    });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of ['7d7e1c1e-97a9-4c5e-9a5c-1d3b1b0b0b0b', 'not-an-id']) {
      const res = await t.request({
        method: 'PATCH',
        url: `/api/templates/${id}`,
        token: admin.token,
        body: { name: 'x' },
      });
      expect(res.statusCode).toBe(404);
      expect(message(res)).toBe(templateMessages.notFound);
    }
  });

  it('leaves a template ungrouped when its group is deleted', async () => {
    const groupId = await createGroup('Doomed');
    const template = await createTemplate(t, admin, { templateGroupId: groupId });
    await t.request({ method: 'DELETE', url: `/api/template-groups/${groupId}`, token: admin.token });
    const got = await t.request({ method: 'GET', url: `/api/templates/${template.id}`, token: admin.token });
    expect(got.json<{ data: Template }>().data).toMatchObject({ templateGroupId: null, templateGroup: null });
  });
});

describe('who sees and changes templates', () => {
  it('shows ordinary users active templates only, without the upstream headers', async () => {
    const active = await createTemplate(t, admin, { name: 'Visible' });
    const inactive = await createTemplate(t, admin, { name: 'Hidden', isActive: false });

    const userList = (await t.request({ method: 'GET', url: '/api/templates', token: user.token })).json<{
      data: Template[];
    }>().data;
    expect(userList.map((x) => x.id)).toContain(active.id);
    expect(userList.map((x) => x.id)).not.toContain(inactive.id);
    expect(userList.every((x) => x.isActive)).toBe(true);
    expect(userList.find((x) => x.id === active.id)?.defaultHeaders).toEqual({});

    const hidden = await t.request({
      method: 'GET',
      url: `/api/templates/${inactive.id}`,
      token: user.token,
    });
    expect(hidden.statusCode).toBe(404);
    const shown = await t.request({ method: 'GET', url: `/api/templates/${active.id}`, token: user.token });
    expect(shown.json<{ data: Template }>().data).toEqual({ ...active, defaultHeaders: {} });

    const adminList = (await t.request({ method: 'GET', url: '/api/templates', token: admin.token })).json<{
      data: Template[];
    }>().data;
    expect(adminList.map((x) => x.id)).toEqual(expect.arrayContaining([active.id, inactive.id]));
    expect(adminList.find((x) => x.id === active.id)?.defaultHeaders).toEqual(active.defaultHeaders);
  });

  it('answers 403 to every write by an ordinary user and 401 without a token', async () => {
    const template = await createTemplate(t, admin);
    const writes = [
      t.request({ method: 'POST', url: '/api/templates', token: user.token, body: templatePayload() }),
      t.request({
        method: 'PATCH',
        url: `/api/templates/${template.id}`,
        token: user.token,
        body: { name: 'x' },
      }),
      t.request({ method: 'DELETE', url: `/api/templates/${template.id}`, token: user.token }),
      t.request({ method: 'POST', url: `/api/templates/${template.id}/test`, token: user.token, body: {} }),
      t.request({
        method: 'GET',
        url: '/api/templates/generators/resort-room-availability',
        token: user.token,
      }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.statusCode).toBe(403);
      expect(message(res)).toBe('You do not have permission to do that.');
    }
    expect((await t.request({ method: 'GET', url: '/api/templates' })).statusCode).toBe(401);
    const unchanged = await t.request({
      method: 'GET',
      url: `/api/templates/${template.id}`,
      token: admin.token,
    });
    expect(unchanged.json<{ data: Template }>().data).toEqual(template);
  });

  it('stops showing inactive templates to an admin demoted in the database', async () => {
    const demoted = await createUser(t, { role: 'admin' });
    const inactive = await createTemplate(t, admin, { isActive: false });
    const before = await t.request({
      method: 'GET',
      url: `/api/templates/${inactive.id}`,
      token: demoted.token,
    });
    expect(before.statusCode).toBe(200);
    await t.db
      .updateTable('users')
      .set({ roles: ['user'] })
      .where('id', '=', demoted.id)
      .execute();
    // Roles are remembered per process and forgotten when the database announces the change:
    // within a second (server/test/accounts/account-cache.int.test.ts), not necessarily at once.
    const demotedAt = Date.now();
    await waitFor(
      async () =>
        (await t.request({ method: 'GET', url: `/api/templates/${inactive.id}`, token: demoted.token }))
          .statusCode === 404,
      'the demoted admin to be refused the inactive template',
      5000,
    );
    expect(Date.now() - demotedAt).toBeLessThanOrEqual(1000);
  });
});

describe('deleting templates', () => {
  it('refuses (409, naming the count) while alerts use the template, then deletes (204)', async () => {
    const template = await createTemplate(t, admin);
    await insertAlertUsing(t, user.id, template.id);
    await insertAlertUsing(t, admin.id, template.id);

    const refused = await t.request({
      method: 'DELETE',
      url: `/api/templates/${template.id}`,
      token: admin.token,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: templateMessages.inUse(2), code: 'CONFLICT' });
    expect(templateMessages.inUse(2)).toContain('used by 2 alerts');
    expect(templateMessages.inUse(1)).toContain('used by 1 alert.');

    await t.db.deleteFrom('alerts').where('template_id', '=', template.id).execute();
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/templates/${template.id}`,
      token: admin.token,
    });
    expect(deleted.statusCode).toBe(204);
    const gone = await t.request({ method: 'GET', url: `/api/templates/${template.id}`, token: admin.token });
    expect(gone.statusCode).toBe(404);
  });
});

describe('template generators', () => {
  it('lists the registry', async () => {
    const res = await t.request({ method: 'GET', url: '/api/templates/generators', token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: { id: string }[] }>().data.map((g) => g.id)).toContain(
      'resort-room-availability',
    );
  });

  it('answers a room-availability sample for a booking page, which saves as a template', async () => {
    const sourceUrl =
      'https://book.resort.example/resorts/beach-club/rooms?checkIn=2027-05-01&checkOut=2027-05-03&adults=2&children=1&childAges=6';
    const res = await t.request({
      method: 'GET',
      url: `/api/templates/generators/resort-room-availability?sourceUrl=${encodeURIComponent(` ${sourceUrl} `)}`,
      token: admin.token,
    });
    expect(res.statusCode).toBe(200);
    const sample = res.json<{
      data: { template: TemplateCreateInputRaw; roomLookup: Record<string, unknown> };
    }>().data;
    expect(sample.roomLookup).toMatchObject({
      source: 'booking-page',
      resortCode: 'beach-club',
      checkIn: '2027-05-01',
      checkOut: '2027-05-03',
      childAges: [6],
    });
    const saved = await t.request({
      method: 'POST',
      url: '/api/templates',
      token: admin.token,
      body: sample.template,
    });
    expect(saved.statusCode).toBe(201);
  });

  it('answers 404 for an unknown generator and 400 for a source URL it cannot use', async () => {
    const unknown = await t.request({
      method: 'GET',
      url: '/api/templates/generators/nope',
      token: admin.token,
    });
    expect(unknown.statusCode).toBe(404);
    expect(message(unknown)).toBe('Template generator not found.');
    const bad = await t.request({
      method: 'GET',
      url: '/api/templates/generators/resort-room-availability?sourceUrl=not%20a%20url',
      token: admin.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(message(bad)).toBe('Source URL must be a valid http or https URL.');
  });
});
