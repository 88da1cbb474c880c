import { messages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTemplate, validPayload } from '../alerts/fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  allProcedurePaths,
  procedureAccess,
  procedureType,
  restRoutesWithAccess,
} from '../helpers/routes.ts';
import { callRest, callTrpc } from './surfaces.ts';

/**
 * Issue 21, finding 6: a token stays valid for its 15 minutes after its account is deleted. Every
 * procedure that needs an account answers 401 for it, on both surfaces; the create routes, which
 * answered 500 (a foreign-key violation), included.
 */
let t: TestApp;
let gone: TestUser;
let goneAdmin: TestUser;
let templateId: string;

beforeAll(async () => {
  t = await startTestApp();
  templateId = await insertTemplate(t);
  gone = await createUser(t);
  goneAdmin = await createUser(t, { role: 'admin' });
  await t.db.deleteFrom('users').where('id', 'in', [gone.id, goneAdmin.id]).execute();
});
afterAll(() => t.close());

describe('a valid token of a deleted account', () => {
  it('answers 401 on the create routes that answered 500', async () => {
    const alert = await t.request({
      method: 'POST',
      url: '/api/registrations',
      token: gone.token,
      body: validPayload(templateId),
    });
    expect(alert.statusCode, alert.body).toBe(401);
    expect(alert.json<{ message: string }>().message).toBe(messages.common.unauthorized);
    const channel = await t.request({
      method: 'POST',
      url: '/api/users/me/notification-services',
      token: gone.token,
      body: { type: 'WEBHOOK', label: 'Hook', config: { url: 'https://hooks.example.com/x' } },
    });
    expect(channel.statusCode, channel.body).toBe(401);
    const group = await t.request({
      method: 'POST',
      url: '/api/template-groups',
      token: goneAdmin.token,
      body: { name: 'Orphans' },
    });
    expect(group.statusCode, group.body).toBe(401);
  });

  it.each(restRoutesWithAccess().filter((r) => r.access !== 'public'))(
    'REST $method $path answers 401',
    async (route) => {
      for (const user of [gone, goneAdmin]) {
        const answer = await callRest(t, route, { input: {} }, user.token);
        expect(answer.status, `${route.method} ${route.path}`).toBe(401);
      }
    },
  );

  // A subscription answers with an event stream: the refusal is its error event, not the status.
  const isStream = (p: string) => procedureType(p) === 'subscription';

  it.each(allProcedurePaths().filter((p) => procedureAccess(p) !== 'public' && !isStream(p)))(
    'tRPC %s answers 401',
    async (path) => {
      for (const user of [gone, goneAdmin]) {
        const answer = await callTrpc(t, path, { input: {} }, user.token);
        expect(answer.status, path).toBe(401);
      }
    },
  );

  it.each(allProcedurePaths().filter(isStream))(
    'tRPC subscription %s refuses the stream as UNAUTHORIZED',
    async (path) => {
      for (const user of [gone, goneAdmin]) {
        const params = encodeURIComponent(JSON.stringify({ token: user.token }));
        const res = await t.app.inject({
          method: 'GET',
          url: `/trpc/${path}?input=${encodeURIComponent('{}')}&connectionParams=${params}`,
          headers: { accept: 'text/event-stream' },
        });
        expect(res.body, path).toContain('event: serialized-error');
        expect(res.body, path).toContain('UNAUTHORIZED');
        expect(res.body, path).not.toContain('"kind":"ready"');
      }
    },
  );

  it('leaves a live account alone', async () => {
    const alive = await createUser(t);
    const res = await t.request({ method: 'GET', url: '/api/users/me', token: alive.token });
    expect(res.statusCode).toBe(200);
  });
});
