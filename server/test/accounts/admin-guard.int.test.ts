import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { allProcedurePaths, concreteUrl, procedureAccess, restRoutesWithAccess } from '../helpers/routes.ts';

let t: TestApp;
let user: TestUser;
let admin: TestUser;
let superAdmin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  user = await createUser(t);
  admin = await createUser(t, { role: 'admin' });
  superAdmin = await createUser(t, { role: 'super_admin' });
});
afterAll(() => t.close());

const adminRoutes = restRoutesWithAccess().filter((r) => r.access === 'admin');

describe('the admin guard', () => {
  it('every procedure declares its access level and every REST row names a real procedure', () => {
    for (const path of allProcedurePaths()) expect(procedureAccess(path), path).toBeDefined();
    for (const route of restRoutesWithAccess())
      expect(route.access, `${route.method} ${route.path}`).toBeDefined();
  });

  it('covers at least one admin route', () => {
    expect(adminRoutes.length).toBeGreaterThan(0);
  });

  it.each(adminRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers 403 to an ordinary user and lets admins through',
    async (_name, route) => {
      const url = concreteUrl(route);
      const asUser = await t.request({
        method: route.method,
        url,
        token: user.token,
        body: route.method === 'GET' ? undefined : {},
      });
      expect(asUser.statusCode).toBe(403);
      for (const who of [admin, superAdmin]) {
        const res = await t.request({
          method: route.method,
          url,
          token: who.token,
          body: route.method === 'GET' ? undefined : {},
        });
        expect([401, 403]).not.toContain(res.statusCode);
        expect(res.statusCode).toBeLessThan(500);
      }
    },
  );

  it('a demoted admin loses access at once, before the token expires', async () => {
    const demoted = await createUser(t, { role: 'admin' });
    const route = adminRoutes.find((r) => r.method === 'GET') ?? adminRoutes[0]!;
    await t.db
      .updateTable('users')
      .set({ roles: ['user'] })
      .where('id', '=', demoted.id)
      .execute();
    const res = await t.request({
      method: route.method,
      url: concreteUrl(route),
      token: demoted.token,
      body: route.method === 'GET' ? undefined : {},
    });
    expect(res.statusCode).toBe(403);
  });
});
