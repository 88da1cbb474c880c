import { createPublicKey, createVerify } from 'node:crypto';
import type { NotificationService } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';
import { type HttpReceiver, type ReceivedRequest, startHttpReceiver, waitFor } from '../helpers/receivers.ts';
import { browserPushKeys, decryptPush } from '../helpers/web-push-decrypt.ts';
import { createAlertLinkedTo, createService, settledDeliveries, startFastRetryApp } from './fixtures.ts';

/**
 * WEB_PUSH against a loopback push service: the request is the Web Push protocol's (RFC 8030 headers,
 * a VAPID authorization per RFC 8292), and its body is decrypted here with the subscription's own keys
 * (RFC 8291, aes128gcm of RFC 8188), written out from the RFCs rather than with the library's code.
 */
let t: TestApp;
let pushService: HttpReceiver;
const PUBLIC_URL = 'https://alerts.example.test';

beforeAll(async () => {
  pushService = await startHttpReceiver(() => ({ status: 201 }));
  t = await startFastRetryApp({ PUBLIC_URL, VAPID_SUBJECT: 'mailto:ops@example.test' });
});
afterAll(async () => {
  await t.close();
  await pushService.close();
});

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed ES256 by that key, for the push service's origin. */
function verifyVapid(req: ReceivedRequest, serverKey: string, origin: string) {
  const match = /^vapid t=([^,]+),\s*k=(.+)$/.exec(String(req.headers.authorization));
  expect(match).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(serverKey);
  const [header, payload, signature] = jwt!.split('.');
  expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({ alg: 'ES256' });
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  expect(claims).toMatchObject({ aud: origin, sub: 'mailto:ops@example.test' });
  expect(claims.exp * 1000).toBeGreaterThan(Date.now());
  const raw = Buffer.from(k!, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const verified = createVerify('SHA256')
    .update(`${header}.${payload}`)
    .verify({ key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
  expect(verified).toBe(true);
}

async function subscribe(user: TestUser, path: string, keys = browserPushKeys()) {
  const service = await createService(t, user, {
    type: 'WEB_PUSH',
    label: 'Chrome on Linux',
    config: {
      endpoint: `${pushService.url}${path}`,
      p256dh: keys.p256dh,
      auth: keys.auth.toString('base64url'),
    },
  });
  return { service, keys };
}

async function notify(user: TestUser, service: NotificationService, key: string) {
  const { alertId } = await createAlertLinkedTo(t, user, [service.id], { title: 'Spring break' });
  const { notificationId } = await t.services.notifications.createNotification({
    userId: user.id,
    alertId,
    eventKey: `push-${key}-${alertId}`,
    kind: 'MATCH',
    message: 'Alert "Spring break" matched (Grand Floridian, party The Smiths): 2 rooms available at $689.',
  });
  return { notificationId, alertId };
}

const at = (path: string) => pushService.requests.filter((r) => r.path === path);

describe('web push', () => {
  it('hands out the VAPID public key, kept once in the database', async () => {
    const user = await createUser(t);
    const res = await t.request({ method: 'GET', url: '/api/users/me/web-push-key', token: user.token });
    expect(res.statusCode).toBe(200);
    const { publicKey } = res.json<{ data: { publicKey: string } }>().data;
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const again = await t.request({ method: 'GET', url: '/api/users/me/web-push-key', token: user.token });
    expect(again.json<{ data: { publicKey: string } }>().data.publicKey).toBe(publicKey);
    const stored = await t.db
      .selectFrom('app_secrets')
      .select('name')
      .where('name', '=', 'vapid_keys')
      .execute();
    expect(stored).toHaveLength(1);
  });

  it('lists the subscribed browsers, most recent last, whose keys the worker prepares at its start', async () => {
    // The file's first subscriptions: none exists before them.
    expect(await t.services.notificationServices.pushBrowsers(10)).toEqual([]);
    const user = await createUser(t);
    const first = await subscribe(user, '/push/first');
    const second = await subscribe(user, '/push/second');
    const keysOf = (s: typeof first) => ({ p256dh: s.keys.p256dh, auth: s.keys.auth.toString('base64url') });
    expect(await t.services.notificationServices.pushBrowsers(10)).toEqual([keysOf(first), keysOf(second)]);
    expect(await t.services.notificationServices.pushBrowsers(1)).toEqual([keysOf(second)]);
    // A browser whose push is turned off gets nothing prepared.
    await t.db
      .updateTable('notification_services')
      .set({ is_active: false })
      .where('id', '=', second.service.id)
      .execute();
    expect(await t.services.notificationServices.pushBrowsers(10)).toEqual([keysOf(first)]);
  });

  it('sends an encrypted payload the subscription decrypts, with VAPID and the push headers, after a retry', async () => {
    const user = await createUser(t);
    const { service, keys } = await subscribe(user, '/push/one');
    expect(JSON.stringify(service.config)).not.toContain(keys.p256dh);
    const keyRes = await t.request({ method: 'GET', url: '/api/users/me/web-push-key', token: user.token });
    const serverKey = keyRes.json<{ data: { publicKey: string } }>().data.publicKey;

    let calls = 0;
    pushService.setAnswer((req) =>
      req.path === '/push/one' && ++calls === 1 ? { status: 503 } : { status: 201 },
    );
    const { notificationId, alertId } = await notify(user, service, 'one');
    const [row] = await settledDeliveries(t, notificationId, 1);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });

    const hits = at('/push/one');
    expect(hits).toHaveLength(2);
    const req = hits[1]!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-encoding']).toBe('aes128gcm');
    expect(req.headers['content-type']).toBe('application/octet-stream');
    expect(Number(req.headers.ttl)).toBeGreaterThan(0);
    expect(req.headers.urgency).toBe('normal');
    verifyVapid(req, serverKey, pushService.url);
    const payload = JSON.parse(decryptPush(req.rawBody, keys));
    expect(payload).toEqual({
      title: 'Spring break',
      body: expect.stringContaining('2 rooms available at $689'),
      url: `${PUBLIC_URL}/alerts/${alertId}`,
      path: `/alerts/${alertId}`,
      tag: alertId,
      urgent: false,
    });
  });

  it("sends an urgent alert's push with Urgency high, and the payload says it is urgent", async () => {
    const user = await createUser(t);
    const { service, keys } = await subscribe(user, '/push/urgent');
    pushService.setAnswer(() => ({ status: 201 }));
    const { alertId } = await createAlertLinkedTo(t, user, [service.id], { title: 'Spring break' });
    await t.db.updateTable('alerts').set({ urgent: true }).where('id', '=', alertId).execute();
    const { notificationId } = await t.services.notifications.createNotification({
      userId: user.id,
      alertId,
      eventKey: `push-urgent-${alertId}`,
      kind: 'MATCH',
      message: 'Alert "Spring break" matched: 2 rooms available at $689.',
    });
    await settledDeliveries(t, notificationId, 1);
    const [req] = at('/push/urgent');
    expect(req!.headers.urgency).toBe('high');
    expect(JSON.parse(decryptPush(req!.rawBody, keys))).toMatchObject({
      title: 'Urgent: Spring break',
      urgent: true,
    });
  });

  it('removes a subscription the push service answers 410 Gone for', async () => {
    const user = await createUser(t);
    const { service } = await subscribe(user, '/push/gone');
    pushService.setAnswer((req) => (req.path === '/push/gone' ? { status: 410 } : { status: 201 }));
    await notify(user, service, 'gone');
    await waitFor(async () => {
      const row = await t.db
        .selectFrom('notification_services')
        .select('id')
        .where('id', '=', service.id)
        .executeTakeFirst();
      return row === undefined;
    }, 'the subscription removed');
    const list = await t.request({
      method: 'GET',
      url: '/api/users/me/notification-services',
      token: user.token,
    });
    expect(list.json<{ data: NotificationService[] }>().data.map((s) => s.id)).not.toContain(service.id);
    expect(at('/push/gone')).toHaveLength(1);
  });
});
