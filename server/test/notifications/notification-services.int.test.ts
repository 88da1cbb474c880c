import type { NotificationService } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.1' } });
});
afterAll(() => t.close());

const base = '/api/users/me/notification-services';
const webhook = (over: Record<string, unknown> = {}) => ({
  type: 'WEBHOOK',
  label: 'Ops hook',
  config: { url: 'http://127.0.0.1:9/hook', ...over },
});

async function create(user: TestUser, body: unknown) {
  return t.request({ method: 'POST', url: base, token: user.token, body });
}

async function servicesOf(user: TestUser): Promise<NotificationService[]> {
  const res = await t.request({ method: 'GET', url: '/api/users/me', token: user.token });
  return res.json<{ data: { notificationServices: NotificationService[] } }>().data.notificationServices;
}

function errorOf(res: { statusCode: number; json<T>(): T }) {
  return {
    status: res.statusCode,
    ...res.json<{ message: string; code: string; issues?: { path: string; message: string }[] }>(),
  };
}

describe('creating notification services', () => {
  it('creates each type with its defaults, and lists them in GET /api/users/me', async () => {
    const user = await createUser(t);
    const hook = await create(user, webhook());
    expect(hook.statusCode).toBe(201);
    const created = hook.json<{ data: NotificationService }>().data;
    expect(created).toMatchObject({
      type: 'WEBHOOK',
      label: 'Ops hook',
      isActive: true,
      config: {
        url: 'http://127.0.0.1:9/hook',
        method: 'POST',
        headers: [],
        bodyTemplate: '{"content": "{{message}}"}',
      },
    });
    expect(created.signingSecret).toMatch(/^whsec_/);

    const slack = await create(user, {
      type: 'SLACK_WEBHOOK',
      config: { url: 'http://127.0.0.1:9/slack', channel: '#alerts', username: '' },
    });
    expect(slack.statusCode).toBe(201);
    expect(slack.json<{ data: NotificationService }>().data).toMatchObject({
      type: 'SLACK_WEBHOOK',
      label: null,
      signingSecret: null,
      config: { url: 'http://127.0.0.1:9/slack', channel: '#alerts' },
    });
    const sms = await create(user, { type: 'SMS', label: 'Phone', config: { toNumber: '+15551234567' } });
    expect(sms.statusCode).toBe(201);

    const listed = await servicesOf(user);
    // The account's own e-mail was added as its EMAIL channel when the account was created.
    expect(listed.map((s) => [s.type, s.label])).toEqual([
      ['EMAIL', 'Primary Email Alerts'],
      ['WEBHOOK', 'Ops hook'],
      ['SLACK_WEBHOOK', null],
      ['SMS', 'Phone'],
    ]);
    expect(listed[0]!.config).toEqual({ toEmail: user.email });
  });

  it('allows one EMAIL, SMS and WEBHOOK per account (409) and any number of Slack webhooks', async () => {
    const user = await createUser(t);
    const again = await create(user, { type: 'EMAIL', config: { toEmail: 'other@example.com' } });
    expect(errorOf(again)).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'EMAIL channel already configured.',
    });

    expect((await create(user, webhook())).statusCode).toBe(201);
    expect(errorOf(await create(user, webhook({ url: 'http://127.0.0.1:9/b' })))).toMatchObject({
      status: 409,
      message: 'WEBHOOK channel already configured.',
    });
    expect((await create(user, { type: 'SMS', config: { toNumber: '1' } })).statusCode).toBe(201);
    expect(errorOf(await create(user, { type: 'SMS', config: { toNumber: '2' } }))).toMatchObject({
      status: 409,
      message: 'SMS channel already configured.',
    });
    for (const n of [1, 2, 3]) {
      const res = await create(user, { type: 'SLACK_WEBHOOK', config: { url: `http://127.0.0.1:9/s${n}` } });
      expect(res.statusCode).toBe(201);
    }
    // Another account is not affected by this one's channels.
    const other = await createUser(t);
    expect((await create(other, webhook())).statusCode).toBe(201);
  });

  it('answers 400 with the spec messages for invalid configs', async () => {
    const user = await createUser(t);
    const headers = Array.from({ length: 16 }, (_, i) => ({ name: `X-H${i}`, value: 'v' }));
    const cases: [unknown, string, string][] = [
      [webhook({ headers }), 'A maximum of 15 headers is supported', 'config.headers'],
      [webhook({ url: 'not a url' }), 'Webhook URL must be a valid URL', 'config.url'],
      [webhook({ url: 'javascript:alert(1)' }), 'Webhook URL must be a valid URL', 'config.url'],
      [webhook({ headers: [{ name: '', value: 'x' }] }), 'Header name is required', 'config.headers.0.name'],
      [
        webhook({ headers: [{ name: 'X-A', value: '' }] }),
        'Header value is required',
        'config.headers.0.value',
      ],
      [
        { type: 'SLACK_WEBHOOK', config: { url: 'hooks' } },
        'Slack webhook URL must be a valid URL',
        'config.url',
      ],
      [{ type: 'EMAIL', config: { toEmail: 'nope' } }, 'Destination email must be valid', 'config.toEmail'],
      [{ type: 'SMS', config: { toNumber: '' } }, 'Destination number is required', 'config.toNumber'],
    ];
    for (const [body, message, path] of cases) {
      const err = errorOf(await create(user, body));
      expect(err, message).toMatchObject({ status: 400, code: 'BAD_REQUEST', message });
      expect(err.issues?.[0]?.path).toBe(path);
    }
    const fifteen = headers.slice(0, 15);
    expect((await create(user, webhook({ headers: fifteen }))).statusCode).toBe(201);
  });

  it('refuses a webhook or Slack URL on a private address unless it is allow-listed', async () => {
    const user = await createUser(t);
    for (const url of [
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest',
      'http://[::1]:8080/x',
      'http://127.0.0.2/x',
    ]) {
      const err = errorOf(await create(user, webhook({ url })));
      expect(err.status, url).toBe(400);
      expect(err.message, url).toMatch(/private|loopback|link-local|not allowed|refused|blocked/i);
    }
    const slack = errorOf(
      await create(user, { type: 'SLACK_WEBHOOK', config: { url: 'http://192.168.1.1/s' } }),
    );
    expect(slack.status).toBe(400);
    // 127.0.0.1 is on this app's OUTBOUND_ALLOWLIST.
    expect((await create(user, webhook())).statusCode).toBe(201);
  });
});

describe('managing notification services', () => {
  it('updates label and config, validating the config against the stored type', async () => {
    const user = await createUser(t);
    const { id } = (await create(user, webhook())).json<{ data: NotificationService }>().data;
    const res = await t.request({
      method: 'PATCH',
      url: `${base}/${id}`,
      token: user.token,
      body: {
        label: 'Renamed',
        config: {
          url: 'http://127.0.0.1:9/new',
          method: 'PUT',
          headers: [{ name: 'X-Key', value: 'k' }],
          bodyTemplate: '',
        },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: NotificationService }>().data).toMatchObject({
      label: 'Renamed',
      config: {
        url: 'http://127.0.0.1:9/new',
        method: 'PUT',
        headers: [{ name: 'X-Key', value: 'k' }],
        bodyTemplate: '',
      },
    });
    const bad = await t.request({
      method: 'PATCH',
      url: `${base}/${id}`,
      token: user.token,
      body: { config: { url: 'x' } },
    });
    expect(errorOf(bad)).toMatchObject({ status: 400, message: 'Webhook URL must be a valid URL' });
    expect(errorOf(bad).issues?.[0]?.path).toBe('config.url');
    const retype = await t.request({
      method: 'PATCH',
      url: `${base}/${id}`,
      token: user.token,
      body: { type: 'SMS' },
    });
    expect(errorOf(retype)).toMatchObject({
      status: 400,
      message: 'The type of a notification service cannot be changed.',
    });
  });

  it('deactivates and reactivates a service, and deletes it', async () => {
    const user = await createUser(t);
    const { id } = (await create(user, { type: 'SMS', config: { toNumber: '+1555' } })).json<{
      data: NotificationService;
    }>().data;
    const off = await t.request({
      method: 'PATCH',
      url: `${base}/${id}`,
      token: user.token,
      body: { isActive: false },
    });
    expect(off.json<{ data: NotificationService }>().data.isActive).toBe(false);
    expect((await servicesOf(user)).find((s) => s.id === id)?.isActive).toBe(false);
    const on = await t.request({
      method: 'PATCH',
      url: `${base}/${id}`,
      token: user.token,
      body: { isActive: true },
    });
    expect(on.json<{ data: NotificationService }>().data).toMatchObject({
      isActive: true,
      deactivatedReason: null,
    });

    const del = await t.request({ method: 'DELETE', url: `${base}/${id}`, token: user.token });
    expect(del.statusCode).toBe(204);
    expect((await servicesOf(user)).some((s) => s.id === id)).toBe(false);
    const again = await t.request({ method: 'DELETE', url: `${base}/${id}`, token: user.token });
    expect(again.statusCode).toBe(404);
    // The type's slot is free again.
    expect((await create(user, { type: 'SMS', config: { toNumber: '+1666' } })).statusCode).toBe(201);
  });

  it('rotates a webhook signing secret', async () => {
    const user = await createUser(t);
    const before = (await create(user, webhook())).json<{ data: NotificationService }>().data;
    const res = await t.request({
      method: 'POST',
      url: `${base}/${before.id}/rotate-secret`,
      token: user.token,
    });
    expect(res.statusCode).toBe(200);
    const after = res.json<{ data: NotificationService }>().data;
    expect(after.signingSecret).toMatch(/^whsec_/);
    expect(after.signingSecret).not.toBe(before.signingSecret);
    expect((await servicesOf(user)).find((s) => s.id === before.id)?.signingSecret).toBe(after.signingSecret);
  });

  it("answers 404 for another account's service on every call, and changes nothing", async () => {
    const owner = await createUser(t);
    const intruder = await createUser(t);
    const { id, signingSecret } = (await create(owner, webhook())).json<{ data: NotificationService }>().data;
    const calls = [
      { method: 'PATCH' as const, url: `${base}/${id}`, body: { label: 'mine now', isActive: false } },
      { method: 'DELETE' as const, url: `${base}/${id}` },
      { method: 'POST' as const, url: `${base}/${id}/rotate-secret` },
      { method: 'POST' as const, url: `${base}/test`, body: { ...webhook(), id } },
    ];
    for (const call of calls) {
      const res = await t.request({ ...call, token: intruder.token });
      expect(errorOf(res), `${call.method} ${call.url}`).toMatchObject({
        status: 404,
        message: 'Notification service not found.',
      });
    }
    const still = (await servicesOf(owner)).find((s) => s.id === id);
    expect(still).toMatchObject({ label: 'Ops hook', isActive: true, signingSecret });
  });

  it('answers 401 without a token', async () => {
    expect((await t.request({ method: 'POST', url: base, body: webhook() })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/users/me/notification-history' })).statusCode).toBe(
      401,
    );
  });

  it('serves the same procedures over tRPC', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/notificationServices.create',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: { type: 'SMS', config: { toNumber: '' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).toBe('Destination number is required');
  });
});
