import type { NotificationRecord } from '@resort/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver } from '../helpers/receivers.ts';
import {
  createAlertLinkedTo,
  createService,
  primaryEmailService,
  verifyStandardWebhook,
} from './fixtures.ts';

// No delivery worker runs: deliveries wait in the outbox, and the tests drive `deliver` themselves.
let t: TestApp;
let hook: HttpReceiver;
beforeAll(async () => {
  hook = await startHttpReceiver();
  t = await startTestApp({ boss: true, env: { OUTBOUND_ALLOWLIST: '127.0.0.1' } });
});
afterAll(async () => {
  await t.close();
  await hook.close();
});

async function history(user: TestUser, query = '') {
  return t.request({ method: 'GET', url: `/api/users/me/notification-history${query}`, token: user.token });
}

async function notify(user: TestUser, alertId: string, n: number) {
  return t.services.notifications.createNotification({
    userId: user.id,
    alertId,
    eventKey: `${alertId}-${n}`,
    kind: 'MATCH',
    message: `Message ${n}`,
  });
}

describe('notification history', () => {
  it("answers only the caller's records, newest first, with the limit respected", async () => {
    const alice = await createUser(t);
    const bob = await createUser(t);
    const aliceEmail = await primaryEmailService(t, alice);
    const aliceAlert = await createAlertLinkedTo(t, alice, [aliceEmail.id], { title: 'Alice trip' });
    const bobAlert = await createAlertLinkedTo(t, bob, [(await primaryEmailService(t, bob)).id], {
      title: 'Bob trip',
    });
    for (let n = 1; n <= 5; n++) await notify(alice, aliceAlert.alertId, n);
    for (let n = 1; n <= 3; n++) await notify(bob, bobAlert.alertId, n);

    const all = await history(alice);
    expect(all.statusCode).toBe(200);
    const records = all.json<{ data: NotificationRecord[] }>().data;
    expect(records.map((r) => r.message)).toEqual([
      'Message 5',
      'Message 4',
      'Message 3',
      'Message 2',
      'Message 1',
    ]);
    expect(records[0]).toMatchObject({
      notificationServiceId: aliceEmail.id,
      notificationService: { type: 'EMAIL', label: 'Primary Email Alerts' },
      registration: {
        id: aliceAlert.alertId,
        title: 'Alice trip',
        partyName: 'The Smiths',
        template: { name: 'Grand Floridian' },
      },
      status: 'PENDING',
      error: null,
      attempts: 0,
      dispatchedAt: null,
    });
    expect(records.every((r) => r.registration?.title === 'Alice trip')).toBe(true);

    const two = (await history(alice, '?limit=2')).json<{ data: NotificationRecord[] }>().data;
    expect(two.map((r) => r.message)).toEqual(['Message 5', 'Message 4']);
    // Rounded down.
    const rounded = (await history(alice, '?limit=3.9')).json<{ data: NotificationRecord[] }>().data;
    expect(rounded).toHaveLength(3);
    const bobs = (await history(bob)).json<{ data: NotificationRecord[] }>().data;
    expect(bobs.map((r) => r.message)).toEqual(['Message 3', 'Message 2', 'Message 1']);
  });

  it('answers 400 for a limit below 1 or not a number', async () => {
    const user = await createUser(t);
    for (const q of ['?limit=0', '?limit=0.5', '?limit=-3', '?limit=abc']) {
      const res = await history(user, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json<{ message: string }>().message).toBe('Limit must be a number of at least 1.');
    }
  });

  it('defaults to 20 records and caps the limit at 100', async () => {
    const user = await createUser(t);
    const email = await primaryEmailService(t, user);
    const { alertId } = await createAlertLinkedTo(t, user, [email.id]);
    const notifications = Array.from({ length: 105 }, (_, n) => ({
      user_id: user.id,
      alert_id: alertId,
      event_key: `bulk-${alertId}-${n}`,
      message: `Bulk ${n}`,
      metadata: '{}',
      created_at: new Date(Date.UTC(2030, 0, 1, 0, 0, n)),
    }));
    const inserted = await t.db
      .insertInto('notifications')
      .values(notifications)
      .returning(['id', 'created_at'])
      .execute();
    await t.db
      .insertInto('notification_deliveries')
      .values(
        inserted.map((n) => ({
          notification_id: n.id,
          notification_service_id: email.id,
          user_id: user.id,
          created_at: n.created_at,
        })),
      )
      .execute();
    const byDefault = (await history(user)).json<{ data: NotificationRecord[] }>().data;
    expect(byDefault).toHaveLength(20);
    expect(byDefault[0]!.message).toBe('Bulk 104');
    expect((await history(user, '?limit=1000')).json<{ data: unknown[] }>().data).toHaveLength(100);
  });

  it('answers the same over tRPC', async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: 'GET',
      url: `/trpc/notifications.history?input=${encodeURIComponent(JSON.stringify({ limit: 0 }))}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('delivery records', () => {
  it('creates one PENDING delivery, due now, per active linked service, in one transaction', async () => {
    const user = await createUser(t);
    const email = await primaryEmailService(t, user);
    const slack = await createService(t, user, { type: 'SLACK_WEBHOOK', config: { url: `${hook.url}/s` } });
    const { alertId } = await createAlertLinkedTo(t, user, [email.id, slack.id]);
    // A failing transaction leaves neither rows nor jobs behind.
    await expect(
      t.db.transaction().execute(async (trx) => {
        await t.services.notifications.createNotification(
          { userId: user.id, alertId, eventKey: `rolled-back-${alertId}`, kind: 'MATCH', message: 'x' },
          trx,
        );
        throw new Error('the caller changed its mind');
      }),
    ).rejects.toThrow('the caller changed its mind');
    const none = await t.db
      .selectFrom('notifications')
      .select('id')
      .where('event_key', '=', `rolled-back-${alertId}`)
      .execute();
    expect(none).toHaveLength(0);
    const { count } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM notification_deliveries
      WHERE status = 'PENDING' AND next_attempt_at <= now()`
      .execute(t.db)
      .then((r) => r.rows[0]!);

    const { notificationId, created } = await notify(user, alertId, 1);
    expect(created).toBe(true);
    const rows = await t.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('notification_id', '=', notificationId)
      .execute();
    expect(rows.map((r) => r.status)).toEqual(['PENDING', 'PENDING']);
    expect(rows.every((r) => r.next_attempt_at !== null && r.claim_token === null)).toBe(true);
    expect(rows.map((r) => r.destination).sort()).toEqual([hook.url, 'smtp'].sort());
    const after = await sql<{ count: number }>`SELECT count(*)::int AS count FROM notification_deliveries
      WHERE status = 'PENDING' AND next_attempt_at <= now()`.execute(t.db);
    expect(after.rows[0]!.count).toBe(count + 2);
  });

  it('after a crash between send and record, resends with the same webhook-id and keeps one record', async () => {
    const user = await createUser(t);
    const service = await createService(t, user, { type: 'WEBHOOK', config: { url: `${hook.url}/crash` } });
    const { alertId } = await createAlertLinkedTo(t, user, [service.id]);
    const { notificationId } = await notify(user, alertId, 1);
    const [delivery] = await t.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('notification_id', '=', notificationId)
      .execute();

    // The database refuses to record the first outcome, as if the worker died right after sending.
    await sql`ALTER TABLE notification_deliveries ADD CONSTRAINT crash_between_send_and_record CHECK (attempts = 0) NOT VALID`.execute(
      t.db,
    );
    try {
      await expect(
        t.services.notifications.deliver({ deliveryId: delivery!.id, attempt: 1 }),
      ).rejects.toThrow();
    } finally {
      await sql`ALTER TABLE notification_deliveries DROP CONSTRAINT crash_between_send_and_record`.execute(
        t.db,
      );
    }
    expect(hook.requests.filter((r) => r.path === '/crash')).toHaveLength(1);

    // The attempt is made again: the send is repeated under the same id, and recorded once.
    await t.services.notifications.deliver({ deliveryId: delivery!.id, attempt: 1 });
    // A further replay of the same attempt finds it recorded and sends nothing.
    await t.services.notifications.deliver({ deliveryId: delivery!.id, attempt: 1 });
    const hits = hook.requests.filter((r) => r.path === '/crash');
    expect(hits).toHaveLength(2);
    expect(hits.map((h) => h.headers['webhook-id'])).toEqual([delivery!.id, delivery!.id]);
    expect(hits.every((h) => verifyStandardWebhook(service.signingSecret!, h.headers, h.body))).toBe(true);
    const rows = await t.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('notification_id', '=', notificationId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'SUCCESS', attempts: 1 });
  });

  it('fails a pending delivery whose service was deactivated, without sending', async () => {
    const user = await createUser(t);
    const service = await createService(t, user, { type: 'WEBHOOK', config: { url: `${hook.url}/off` } });
    const { alertId } = await createAlertLinkedTo(t, user, [service.id]);
    const { notificationId } = await notify(user, alertId, 1);
    await t.request({
      method: 'PATCH',
      url: `/api/users/me/notification-services/${service.id}`,
      token: user.token,
      body: { isActive: false },
    });
    const [delivery] = await t.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('notification_id', '=', notificationId)
      .execute();
    await t.services.notifications.deliver({ deliveryId: delivery!.id, attempt: 1 });
    const [row] = await t.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('id', '=', delivery!.id)
      .execute();
    expect(row).toMatchObject({ status: 'FAILURE', attempts: 0, error: 'Notification service is inactive.' });
    expect(hook.requests.some((r) => r.path === '/off')).toBe(false);
  });
});
