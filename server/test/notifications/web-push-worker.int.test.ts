import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { defaultReserveLimits } from '../../src/modules/notifications/channels/push-sealer.ts';
import type { Runtime } from '../../src/runtime.ts';
import { createPlanner } from '../engine/engine-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { waitFor } from '../helpers/receivers.ts';
import { browserPushKeys } from '../helpers/web-push-decrypt.ts';
import { startWorkerRuntime } from '../helpers/worker-process.ts';

/**
 * A worker process started while browsers are subscribed to push prepares their message keys at
 * once, before any push (docs/decisions.md, "Web Push"): the first burst to them is sealed without
 * asymmetric work. A browser whose push is turned off gets nothing prepared.
 */

let database: TestDatabase;
let handle: DatabaseHandle;
let runtime: Runtime | null = null;

async function subscribeBrowser(userId: string, isActive: boolean) {
  const keys = browserPushKeys();
  await handle.db
    .insertInto('notification_services')
    .values({
      user_id: userId,
      type: 'WEB_PUSH',
      label: 'Firefox on Linux',
      is_active: isActive,
      config: JSON.stringify({
        endpoint: 'http://127.0.0.1:9/push/worker',
        p256dh: keys.p256dh,
        auth: keys.auth.toString('base64url'),
      }),
      signing_secret: 'whsec_unused',
    })
    .execute();
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDatabase(database.url, { max: 2 });
  const planner = await createPlanner(handle.db, 'http://127.0.0.1:9/hook');
  await subscribeBrowser(planner.userId, true);
  await subscribeBrowser(planner.userId, false);
  runtime = await startWorkerRuntime(database.url);
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await handle?.destroy();
  await database?.drop();
});

describe('a worker with browsers subscribed to push', { timeout: 60_000 }, () => {
  it('prepares the active browser’s message keys at its start, before any push', async () => {
    const channels = runtime!.services.channels;
    const ready = await waitFor(
      () => channels.pushReserves().keys === defaultReserveLimits.keysPerBrowser && channels.pushReserves(),
      'the subscribed browser’s reserve',
      45_000,
    );
    expect(ready).toEqual({ browsers: 1, keys: defaultReserveLimits.keysPerBrowser });
  });
});
