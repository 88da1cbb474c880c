import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Its twin file inserts the same unique row; each file has a database of its own, so both pass
// when vitest runs them in parallel.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('inserts a row whose unique key the twin file also inserts (a)', async () => {
  await t.db
    .insertInto('users')
    .values({ email: 'same.person@example.com', name: 'Twin a', password_hash: 'x' })
    .execute();
  const rows = await t.db
    .selectFrom('users')
    .select('name')
    .where('email', '=', 'same.person@example.com')
    .execute();
  expect(rows).toEqual([{ name: 'Twin a' }]);
});
