import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { createDatabase } from '../../src/db/database.ts';
import { buildApp } from '../../src/http/app.ts';
import { createServices } from '../../src/modules/services.ts';
import { createLogger } from '../../src/platform/logger.ts';
import {
  createAlerts,
  createPlanner,
  createTemplate,
  rooms,
  startUpstream,
  startWebhookReceiver,
  waitFor,
} from '../engine/engine-fixtures.ts';
import { createUser } from '../factories.ts';
import { startTestApp } from '../helpers/app.ts';
import { openLiveStream } from '../helpers/live-stream.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

/**
 * Live events ([alert-insight] acceptance 2): what a separate worker process produces reaches the
 * owner's stream on the app process, nobody else's; a stream resumes after an app restart with
 * what it missed, once.
 */
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A second app process on the same database (what a restart brings back). */
async function startAppOn(config: Config) {
  const log = createLogger('silent');
  const handle = createDatabase(config.DATABASE_URL!, { max: 3 });
  const services = await createServices({
    config,
    db: handle.db,
    boss: null,
    log,
    databaseUrl: config.DATABASE_URL!,
  });
  const app = await buildApp(services);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    async close() {
      await app.close();
      await services.live.close();
      await services.outbound.close();
      await handle.destroy();
    },
  };
}

describe('live events', { timeout: 120_000 }, () => {
  it('a worker process polls and notifies: the owner is told at once, another user nothing', async () => {
    const t = await startTestApp({ listen: true });
    cleanups.push(() => t.close());
    const upstream = await startUpstream();
    const receiver = await startWebhookReceiver();
    cleanups.push(() => upstream.close());
    cleanups.push(() => receiver.close());
    upstream.set('/rooms', { body: rooms(true) });
    const owner = await createUser(t);
    const other = await createUser(t);
    const planner = await createPlanner(t.db, receiver.url, owner.id);
    const templateId = await createTemplate(t.db, `${upstream.url}/rooms`);

    const mine = openLiveStream(t.baseUrl!, owner.token);
    const theirs = openLiveStream(t.baseUrl!, other.token);
    cleanups.push(() => mine.close());
    cleanups.push(() => theirs.close());
    await Promise.all([mine.connected, theirs.connected]);

    const [alertId] = await createAlerts(t.db, planner, templateId, [{ title: 'Lagoon watch' }]);
    const worker = spawnWorkerProcess(t.database.url);
    cleanups.push(async () => {
      if (worker.exitCode === null && worker.signalCode === null) {
        worker.kill('SIGTERM');
        await once(worker, 'exit');
      }
    });

    const kinds = () =>
      new Set(mine.events.filter((e) => e.data.registrationId === alertId).map((e) => e.data.kind));
    await waitFor(
      () => ['poll', 'status', 'notification', 'delivery'].every((k) => kinds().has(k as never)),
      {
        what: 'poll, status, notification and delivery events of the worker',
        timeoutMs: 60_000,
      },
    );
    const status = mine.events.find((e) => e.data.kind === 'status')!;
    expect(status.data).toMatchObject({ userId: owner.id, registrationId: alertId, status: 'FIRING' });
    const notification = mine.events.find((e) => e.data.kind === 'notification')!;
    expect(notification.data.message).toContain('Alert "Lagoon watch" matched');
    // Every event names its owner; the other user's stream stayed empty throughout.
    expect(mine.events.every((e) => e.data.userId === owner.id)).toBe(true);
    expect(theirs.events).toEqual([]);
  });

  it('an admin stream of every user sees the event; a non-admin may not open one', async () => {
    const t = await startTestApp({ listen: true });
    cleanups.push(() => t.close());
    const admin = await createUser(t, { role: 'admin' });
    const planner = await createUser(t);
    const all = openLiveStream(t.baseUrl!, admin.token, { scope: 'all' });
    cleanups.push(() => all.close());
    await all.connected;
    const refused = openLiveStream(t.baseUrl!, planner.token, { scope: 'all' });
    cleanups.push(() => refused.close());
    await expect(refused.connected).rejects.toThrow(/403|FORBIDDEN|not allowed|permission/i);
    const signedOut = openLiveStream(t.baseUrl!, 'not-a-token');
    cleanups.push(() => signedOut.close());
    await expect(signedOut.connected).rejects.toThrow(/401|UNAUTHORIZED/i);

    await t.db
      .insertInto('notifications')
      .values({ user_id: planner.id, event_key: 'k-admin', message: 'Seen by admins', metadata: '{}' })
      .execute();
    await waitFor(() => all.events.some((e) => e.data.message === 'Seen by admins'), {
      what: 'the admin event',
    });
  });

  it('after an app restart a stream resumes from its last event: what it missed once, then new events', async () => {
    const t = await startTestApp();
    cleanups.push(() => t.close());
    const owner = await createUser(t);
    const notify = (key: string) =>
      t.db
        .insertInto('notifications')
        .values({ user_id: owner.id, event_key: key, message: `Event ${key}`, metadata: '{}' })
        .execute();

    const first = await startAppOn(t.config);
    const before = openLiveStream(first.url, owner.token);
    await before.connected;
    await notify('a');
    await waitFor(() => before.events.length === 1, { what: 'the first event' });
    const lastId = before.events[0]!.id!;
    before.close();
    await first.close();

    // While no app process runs, two more events happen.
    await notify('b');
    await notify('c');

    const second = await startAppOn(t.config);
    cleanups.push(() => second.close());
    const after = openLiveStream(second.url, owner.token, { lastEventId: lastId });
    cleanups.push(() => after.close());
    await after.connected;
    await waitFor(() => after.events.length === 2, { what: 'the missed events' });
    await notify('d');
    await waitFor(() => after.events.length === 3, { what: 'the new event' });
    expect(after.events.map((e) => e.data.message)).toEqual(['Event b', 'Event c', 'Event d']);
    const ids = after.events.map((e) => e.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => BigInt(id!) > BigInt(lastId))).toBe(true);
  });
});
