import { randomUUID } from 'node:crypto';
import type { Alert, NotificationService } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, createAlert, insertTemplate, validPayload } from '../alerts/fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Managing saved services from Settings (issue [ui-quality]): edit, enable/disable, delete, re-test
 * and rotate, through the same REST routes and procedures the SPA calls; ownership, validation,
 * 404 and 409.
 */
let t: TestApp;
let templateId: string;
beforeAll(async () => {
  t = await startTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.1' } });
  templateId = await insertTemplate(t, { name: 'Contemporary' });
});
afterAll(() => t.close());

const base = '/api/users/me/notification-services';

async function addService(user: TestUser, body: unknown): Promise<NotificationService> {
  const res = await t.request({ method: 'POST', url: base, token: user.token, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: NotificationService }>().data;
}

async function alertOf(user: TestUser, id: string): Promise<Alert> {
  const res = await t.request({ method: 'GET', url: `/api/registrations/${id}`, token: user.token });
  expect(res.statusCode).toBe(200);
  return res.json<Answer<Alert>>().data;
}

describe('deleting a service an alert uses', () => {
  it('unlinks it from the alert, which keeps notifying its other services', async () => {
    const user = await createUser(t);
    const sms = await addService(user, { type: 'SMS', label: 'Phone', config: { toNumber: '+15550100' } });
    const slack = await addService(user, {
      type: 'SLACK_WEBHOOK',
      label: 'Team channel',
      config: { url: 'http://127.0.0.1:9/slack' },
    });
    const created = await createAlert(
      t,
      user,
      validPayload(templateId, { notificationServiceIds: [sms.id, slack.id] }),
    );
    expect(created.statusCode).toBe(201);
    const alert = created.json<Answer<Alert>>().data;

    const del = await t.request({ method: 'DELETE', url: `${base}/${sms.id}`, token: user.token });
    expect(del.statusCode).toBe(204);

    const after = await alertOf(user, alert.id);
    expect(after.status).toBe('ACTIVE');
    expect(after.notificationServices).toEqual([
      expect.objectContaining({ notificationServiceId: slack.id, type: 'SLACK_WEBHOOK', isActive: true }),
    ]);
  });

  it('keeps a disabled service linked, shown inactive, until it is enabled again', async () => {
    const user = await createUser(t);
    const hook = await addService(user, { type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/h' } });
    const alert = (
      await createAlert(t, user, validPayload(templateId, { notificationServiceIds: [hook.id] }))
    ).json<Answer<Alert>>().data;
    const patch = (isActive: boolean) =>
      t.request({ method: 'PATCH', url: `${base}/${hook.id}`, token: user.token, body: { isActive } });
    expect((await patch(false)).statusCode).toBe(200);
    expect((await alertOf(user, alert.id)).notificationServices).toEqual([
      expect.objectContaining({ notificationServiceId: hook.id, isActive: false }),
    ]);
    expect((await patch(true)).statusCode).toBe(200);
    expect((await alertOf(user, alert.id)).notificationServices).toEqual([
      expect.objectContaining({ notificationServiceId: hook.id, isActive: true }),
    ]);
  });
});

describe('validation, 404 and 409 on the management routes', () => {
  it('answers 400 for an id that is not a UUID, on every route that takes one', async () => {
    const user = await createUser(t);
    const calls = [
      { method: 'PATCH' as const, url: `${base}/not-a-uuid`, body: { isActive: false } },
      { method: 'DELETE' as const, url: `${base}/not-a-uuid` },
      { method: 'POST' as const, url: `${base}/not-a-uuid/rotate-secret` },
    ];
    for (const call of calls) {
      const res = await t.request({ ...call, token: user.token });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(400);
      expect(res.json<{ code: string }>().code, call.url).toBe('BAD_REQUEST');
    }
  });

  it('answers 404 for a well-formed id that names no service, and for re-testing one', async () => {
    const user = await createUser(t);
    const missing = randomUUID();
    const calls = [
      { method: 'PATCH' as const, url: `${base}/${missing}`, body: { label: 'x' } },
      { method: 'DELETE' as const, url: `${base}/${missing}` },
      { method: 'POST' as const, url: `${base}/${missing}/rotate-secret` },
      {
        method: 'POST' as const,
        url: `${base}/test`,
        body: { id: missing, type: 'SMS', config: { toNumber: '+15550100' } },
      },
    ];
    for (const call of calls) {
      const res = await t.request({ ...call, token: user.token });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(res.json<{ message: string }>().message).toBe('Notification service not found.');
    }
  });

  it('refuses a bad edit with the config schema messages, and keeps the service as it was', async () => {
    const user = await createUser(t);
    const mail = (await t.request({ method: 'GET', url: '/api/users/me', token: user.token })).json<{
      data: { notificationServices: NotificationService[] };
    }>().data.notificationServices[0]!;
    const res = await t.request({
      method: 'PATCH',
      url: `${base}/${mail.id}`,
      token: user.token,
      body: { label: 'Inbox', config: { toEmail: 'not an address' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ issues: { path: string; message: string }[] }>().issues).toEqual([
      expect.objectContaining({ path: 'config.toEmail', message: 'Destination email must be valid' }),
    ]);
    const label = await t.db
      .selectFrom('notification_services')
      .select(['label', 'config'])
      .where('id', '=', mail.id)
      .executeTakeFirstOrThrow();
    expect(label.label).toBe('Primary Email Alerts');
  });

  it('answers 409 when a second e-mail service is added, also while the first is disabled', async () => {
    const user = await createUser(t);
    const me = await t.request({ method: 'GET', url: '/api/users/me', token: user.token });
    const mail = me.json<{ data: { notificationServices: NotificationService[] } }>().data
      .notificationServices[0]!;
    await t.request({
      method: 'PATCH',
      url: `${base}/${mail.id}`,
      token: user.token,
      body: { isActive: false },
    });
    const again = await t.request({
      method: 'POST',
      url: base,
      token: user.token,
      body: { type: 'EMAIL', config: { toEmail: 'second@example.com' } },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe('EMAIL channel already configured.');
  });

  it('re-tests a saved service by id and rotates only the owner’s secret', async () => {
    const owner = await createUser(t);
    const other = await createUser(t);
    const hook = await addService(owner, { type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/hook' } });
    const rotated = await t.request({
      method: 'POST',
      url: `${base}/${hook.id}/rotate-secret`,
      token: owner.token,
    });
    expect(rotated.json<{ data: NotificationService }>().data.signingSecret).not.toBe(hook.signingSecret);
    const refused = await t.request({
      method: 'POST',
      url: `${base}/${hook.id}/rotate-secret`,
      token: other.token,
    });
    expect(refused.statusCode).toBe(404);
    // Port 9 (discard) refuses the connection: the test send reports the failure, as the SPA shows it.
    const test = await t.request({
      method: 'POST',
      url: `${base}/test`,
      token: owner.token,
      body: { id: hook.id, type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/hook' } },
    });
    expect(test.statusCode).toBe(502);
    expect(test.json<{ message: string }>().message).toMatch(/^Failed to dispatch test notification\./);
  });
});
