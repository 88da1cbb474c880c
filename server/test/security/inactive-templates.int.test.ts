import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { alertMessages as m } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertOk, type ErrorBody, insertTemplate, validPayload } from '../alerts/fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Issue 21, finding 5: an inactive template answers 404 to planners, and no path lets a planner have
 * its request (with its secret default headers) sent: not the alert test, not create, not update.
 * A real upstream on loopback counts what reaches it.
 */
let upstream: Server;
let received = 0;
let t: TestApp;
let planner: TestUser;
let admin: TestUser;

beforeAll(async () => {
  upstream = createServer((_req, res) => {
    received++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"rooms":[]}');
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  t = await startTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.1' } });
  planner = await createUser(t);
  admin = await createUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  upstream.close();
});

async function inactiveTemplate(): Promise<string> {
  const port = (upstream.address() as AddressInfo).port;
  return insertTemplate(t, {
    targetUrl: `http://127.0.0.1:${port}/availability`,
    defaultHeaders: { 'x-api-key': 'secret-of-the-admin' },
    isActive: false,
  });
}

const deactivate = (id: string) =>
  t.db.updateTable('templates').set({ is_active: false }).where('id', '=', id).execute();

describe('an inactive template, to a planner', () => {
  it('is not tested: the alert test answers 400 and the upstream receives nothing', async () => {
    const id = await inactiveTemplate();
    const before = received;
    const res = await t.request({
      method: 'POST',
      url: '/api/registrations/test',
      token: planner.token,
      body: validPayload(id),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<ErrorBody>().message).toBe(m.templateUnavailable);
    expect(res.body).not.toContain('secret-of-the-admin');
    expect(received).toBe(before);
  });

  it('takes no new alert', async () => {
    const id = await inactiveTemplate();
    const res = await t.request({
      method: 'POST',
      url: '/api/registrations',
      token: planner.token,
      body: validPayload(id),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().message).toBe(m.templateUnavailable);
  });

  it('takes no edit of an alert made before it was deactivated; status changes and removal still work', async () => {
    const id = await inactiveTemplate();
    await t.db.updateTable('templates').set({ is_active: true }).where('id', '=', id).execute();
    const alert = await createAlertOk(t, planner, id);
    await deactivate(id);
    const edit = await t.request({
      method: 'PATCH',
      url: `/api/registrations/${alert.id}`,
      token: planner.token,
      body: validPayload(id, { title: 'Edited' }),
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json<ErrorBody>().message).toBe(m.templateUnavailable);
    const status = await t.request({
      method: 'PATCH',
      url: `/api/registrations/${alert.id}`,
      token: planner.token,
      body: { status: 'BOOKED' },
    });
    expect(status.statusCode, status.body).toBe(200);
    // An admin may still keep the alert on it.
    const byAdmin = await t.request({
      method: 'PATCH',
      url: `/api/admin/registrations/${alert.id}`,
      token: admin.token,
      body: validPayload(id, { title: 'Kept by an admin' }),
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    const removed = await t.request({
      method: 'DELETE',
      url: `/api/registrations/${alert.id}`,
      token: planner.token,
    });
    expect(removed.statusCode).toBe(204);
  });
});
