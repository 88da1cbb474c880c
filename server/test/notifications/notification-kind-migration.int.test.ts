import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../../../migrations/0012_notification_kind.ts';
import { createPlanner } from '../engine/engine-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/** Migration 0012: notifications written before it kept a RESOLVED kind only in their metadata. */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('migration 0012_notification_kind', () => {
  it('gives old RESOLVED notifications their kind and leaves the others as they are', async () => {
    const { userId } = await createPlanner(t.db, 'http://127.0.0.1:9/unused');
    const row = (key: string, kind: string | null) => ({
      user_id: userId,
      event_key: key,
      message: key,
      metadata: JSON.stringify(kind ? { kind } : {}),
    });
    // As the engine wrote them before: the column's default, the true kind in the metadata.
    await t.db
      .insertInto('notifications')
      .values([row('old-match', 'MATCH'), row('old-resolved', 'RESOLVED'), row('test-send', null)])
      .execute();

    await up(t.db);
    await up(t.db); // running it twice changes nothing more

    const kinds = await t.db
      .selectFrom('notifications')
      .select(['event_key', 'kind'])
      .where('user_id', '=', userId)
      .orderBy('event_key')
      .execute();
    expect(kinds).toEqual([
      { event_key: 'old-match', kind: 'MATCH' },
      { event_key: 'old-resolved', kind: 'RESOLVED' },
      { event_key: 'test-send', kind: 'MATCH' },
    ]);
  });
});
