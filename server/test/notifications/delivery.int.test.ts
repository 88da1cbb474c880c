import type { NotificationRecord, NotificationService } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queues } from '../../src/jobs/queues.ts';
import { registerDeliveryWorker } from '../../src/modules/notifications/notifications.jobs.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver, startSmtpSink, waitFor } from '../helpers/receivers.ts';
import {
  createAlertLinkedTo,
  createService,
  primaryEmailService,
  verifyStandardWebhook,
} from './fixtures.ts';

let t: TestApp;
let hook: HttpReceiver;
let slack: HttpReceiver;
let smsApi: HttpReceiver;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  [hook, slack, smsApi, smtp] = await Promise.all([
    startHttpReceiver(),
    startHttpReceiver(),
    startHttpReceiver(() => ({
      status: 201,
      headers: { 'content-type': 'application/json' },
      body: '{"sid":"SM1"}',
    })),
    startSmtpSink(),
  ]);
  t = await startTestApp({
    boss: true,
    env: {
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      SMTP_URL: smtp.url,
      SMTP_FROM: 'Resort Alerts <alerts@example.test>',
      SMS_API_URL: smsApi.url,
      SMS_ACCOUNT_SID: 'AC123',
      SMS_AUTH_TOKEN: 'sms-token',
      SMS_FROM: '+15550001111',
      // A 1-second schedule (1 s, then 1 s: capped), 3 attempts, so retries finish in seconds.
      DELIVERY_RETRY_BASE_SECONDS: '1',
      DELIVERY_RETRY_MAX_DELAY_SECONDS: '1',
      DELIVERY_MAX_ATTEMPTS: '3',
    },
  });
  await registerDeliveryWorker(t.boss!, t.services);
});
afterAll(async () => {
  await t.close();
  await Promise.all([hook.close(), slack.close(), smsApi.close(), smtp.close()]);
});

async function deliveries(notificationId: string) {
  return t.db
    .selectFrom('notification_deliveries')
    .selectAll()
    .where('notification_id', '=', notificationId)
    .execute();
}

async function settled(notificationId: string, count: number) {
  return waitFor(async () => {
    const rows = await deliveries(notificationId);
    return rows.length === count && rows.every((d) => d.status !== 'PENDING') && rows;
  }, `${count} settled deliveries`);
}

async function history(user: TestUser, query = ''): Promise<NotificationRecord[]> {
  const res = await t.request({
    method: 'GET',
    url: `/api/users/me/notification-history${query}`,
    token: user.token,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: NotificationRecord[] }>().data;
}

/** A user with one webhook on its own path of the shared receiver, linked to a fresh alert. */
async function webhookAlert(path: string, config: Record<string, unknown> = {}) {
  const user = await createUser(t);
  const service = await createService(t, user, {
    type: 'WEBHOOK',
    label: path,
    config: { url: `${hook.url}${path}`, ...config },
  });
  const alert = await createAlertLinkedTo(t, user, [service.id]);
  return { user, service, ...alert };
}

const forPath = (path: string) => hook.requests.filter((r) => r.path === path);

describe('delivery pipeline', () => {
  it('fans a notification out to every active linked channel and delivers each once', async () => {
    const user = await createUser(t);
    const webhook = await createService(t, user, {
      type: 'WEBHOOK',
      label: 'Fan-out',
      config: {
        url: `${hook.url}/fanout`,
        method: 'PUT',
        headers: [{ name: 'X-Api-Key', value: 'k-123' }],
        bodyTemplate:
          '{"text": "{{message}}", "alert": "{{registrationId}}", "template": "{{templateId}}", "at": "{{metadata.timestamp}}"}',
      },
    });
    // A blank header pair saved before validation existed is dropped when sending.
    await t.db
      .updateTable('notification_services')
      .set({
        config: JSON.stringify({
          ...webhook.config,
          headers: [
            { name: 'X-Api-Key', value: 'k-123' },
            { name: '', value: '' },
          ],
        }),
      })
      .where('id', '=', webhook.id)
      .execute();
    const slackService = await createService(t, user, {
      type: 'SLACK_WEBHOOK',
      config: { url: `${slack.url}/services/T/B/X`, channel: '#resort', username: 'Resort bot' },
    });
    const inactiveSlack = await createService(t, user, {
      type: 'SLACK_WEBHOOK',
      config: { url: `${slack.url}/off` },
    });
    await t.request({
      method: 'PATCH',
      url: `/api/users/me/notification-services/${inactiveSlack.id}`,
      token: user.token,
      body: { isActive: false },
    });
    const sms = await createService(t, user, { type: 'SMS', config: { toNumber: '+15557654321' } });
    const email = await primaryEmailService(t, user);
    const { registrationId, templateId } = await createAlertLinkedTo(
      t,
      user,
      [webhook.id, slackService.id, inactiveSlack.id, sms.id, email.id],
      { title: 'Spring <break>', partyName: 'The Smiths' },
    );

    const message = 'Deluxe room "Lake view" is available for $420 & up';
    const result = await t.services.notifications.createNotification({
      userId: user.id,
      registrationId,
      eventKey: `fanout-${registrationId}`,
      message,
      metadata: { timestamp: '2030-04-01T12:00:00.000Z', matched: true },
    });
    expect(result.created).toBe(true);
    const rows = await settled(result.notificationId, 4);
    expect(rows.map((d) => d.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(rows.every((d) => d.attempts === 1 && d.error === null && d.dispatched_at !== null)).toBe(true);
    expect(rows.some((d) => d.notification_service_id === inactiveSlack.id)).toBe(false);

    // Webhook: method, headers, JSON body from the template, and a verifiable signature.
    const [received] = forPath('/fanout');
    expect(forPath('/fanout')).toHaveLength(1);
    expect(received!.method).toBe('PUT');
    expect(received!.headers['x-api-key']).toBe('k-123');
    expect(received!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received!.body)).toEqual({
      text: message,
      alert: registrationId,
      template: templateId,
      at: '2030-04-01T12:00:00.000Z',
    });
    const webhookDelivery = rows.find((d) => d.notification_service_id === webhook.id)!;
    expect(received!.headers['webhook-id']).toBe(webhookDelivery.id);
    expect(Number(received!.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(verifyStandardWebhook(webhook.signingSecret!, received!.headers, received!.body)).toBe(true);
    expect(verifyStandardWebhook(webhook.signingSecret!, received!.headers, `${received!.body} `)).toBe(
      false,
    );

    // Slack: the incoming-webhook payload.
    const slackHits = slack.requests.filter((r) => r.path === '/services/T/B/X');
    expect(slackHits).toHaveLength(1);
    expect(slackHits[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(slackHits[0]!.body)).toEqual({
      text: `*Spring &lt;break&gt;*\n${message.replace('&', '&amp;')}`,
      channel: '#resort',
      username: 'Resort bot',
    });
    expect(slack.requests.some((r) => r.path === '/off')).toBe(false);

    // SMS: the Twilio-compatible API call.
    const smsHit = smsApi.requests.find((r) => new URLSearchParams(r.body).get('To') === '+15557654321')!;
    expect(smsHit.method).toBe('POST');
    expect(smsHit.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(smsHit.headers.authorization).toBe(`Basic ${Buffer.from('AC123:sms-token').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(smsHit.body))).toEqual({
      To: '+15557654321',
      From: '+15550001111',
      Body: `Resort Alerts: Spring <break>\n${message}`,
    });

    // E-mail: received over SMTP and parsed, readable as text and as HTML.
    const mail = await waitFor(
      () => smtp.messages.find((m) => m.envelopeTo.includes(user.email)),
      'the e-mail',
    );
    expect(mail.subject).toBe('Resort Alerts: Spring <break>');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Resort Alerts', address: 'alerts@example.test' });
    expect(mail.text).toContain(message);
    expect(mail.text).toContain('Party: The Smiths');
    expect(mail.html).toContain('Deluxe room &quot;Lake view&quot; is available for $420 &amp; up');
    expect(mail.html).toContain('Spring &lt;break&gt;');
    expect(mail.messageId).toBe(
      `<${rows.find((d) => d.notification_service_id === email.id)!.id}@resort-alerts>`,
    );

    // The same event again creates nothing and enqueues nothing.
    const jobsOf = async () =>
      (
        await Promise.all(rows.map((d) => t.boss!.findJobs(queues.deliver, { data: { deliveryId: d.id } })))
      ).flat();
    expect(await jobsOf()).toHaveLength(4);
    const again = await t.services.notifications.createNotification({
      userId: user.id,
      registrationId,
      eventKey: `fanout-${registrationId}`,
      message: 'duplicate',
    });
    expect(again).toEqual({ notificationId: result.notificationId, created: false });
    expect(await deliveries(result.notificationId)).toHaveLength(4);
    expect(await jobsOf()).toHaveLength(4);

    const records = await history(user);
    expect(records).toHaveLength(4);
    expect(records[0]).toMatchObject({
      notificationId: result.notificationId,
      message,
      status: 'SUCCESS',
      registration: {
        id: registrationId,
        title: 'Spring <break>',
        partyName: 'The Smiths',
        template: { name: 'Grand Floridian' },
      },
    });
  });

  it('sends a non-JSON template as text and a blank one as no body', async () => {
    const text = await webhookAlert('/text', { bodyTemplate: 'Alert {{registrationId}}: {{message}}' });
    const blank = await webhookAlert('/blank', { bodyTemplate: '', method: 'POST' });
    const get = await webhookAlert('/get', { method: 'GET' });
    for (const a of [text, blank, get]) {
      await t.services.notifications.createNotification({
        userId: a.user.id,
        registrationId: a.registrationId,
        eventKey: `body-${a.registrationId}`,
        message: 'Rooms open',
      });
    }
    await waitFor(
      () => forPath('/text').length && forPath('/blank').length && forPath('/get').length,
      'three webhooks',
    );
    const [asText] = forPath('/text');
    expect(asText!.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(asText!.body).toBe(`Alert ${text.registrationId}: Rooms open`);
    expect(verifyStandardWebhook(text.service.signingSecret!, asText!.headers, asText!.body)).toBe(true);
    const [none] = forPath('/blank');
    expect(none!.body).toBe('');
    expect(none!.headers['content-type']).toBeUndefined();
    expect(verifyStandardWebhook(blank.service.signingSecret!, none!.headers, '')).toBe(true);
    expect(forPath('/get')[0]!.method).toBe('GET');
    expect(forPath('/get')[0]!.body).toBe('');
  });

  it('retries a receiver that fails twice, with the same webhook-id, and ends SUCCESS after three attempts', async () => {
    const a = await webhookAlert('/flaky');
    let calls = 0;
    hook.setAnswer((req) => {
      if (req.path !== '/flaky') return { status: 200 };
      calls++;
      return calls <= 2 ? { status: 500, body: 'temporarily broken' } : { status: 200 };
    });
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      registrationId: a.registrationId,
      eventKey: `flaky-${a.registrationId}`,
      message: 'Try me',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 3, error: null });
    const hits = forPath('/flaky');
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.headers['webhook-id']))).toEqual(new Set([row!.id]));
    expect(hits.every((h) => verifyStandardWebhook(a.service.signingSecret!, h.headers, h.body))).toBe(true);
    // Backoff: each retry came at least the 1-second base after the previous attempt.
    expect(hits[1]!.receivedAt - hits[0]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(hits[2]!.receivedAt - hits[1]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect((await history(a.user))[0]).toMatchObject({ status: 'SUCCESS', attempts: 3, error: null });
  });

  it('ends FAILURE with the last error after the last attempt, visible in the history', async () => {
    const a = await webhookAlert('/down');
    hook.setAnswer((req) =>
      req.path === '/down' ? { status: 503, body: 'down for maintenance' } : { status: 200 },
    );
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      registrationId: a.registrationId,
      eventKey: `down-${a.registrationId}`,
      message: 'Will not arrive',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({
      status: 'FAILURE',
      attempts: 3,
      error: 'Webhook receiver answered 503: down for maintenance',
      dispatched_at: null,
    });
    expect(forPath('/down')).toHaveLength(3);
    const [record] = await history(a.user);
    expect(record).toMatchObject({
      status: 'FAILURE',
      error: 'Webhook receiver answered 503: down for maintenance',
      message: 'Will not arrive',
      notificationService: { type: 'WEBHOOK', label: '/down' },
    });
  });

  it('waits at least as long as a 429 Retry-After asks', async () => {
    const a = await webhookAlert('/busy');
    let calls = 0;
    hook.setAnswer((req) => {
      if (req.path !== '/busy') return { status: 200 };
      calls++;
      return calls === 1
        ? { status: 429, headers: { 'retry-after': '3' }, body: 'slow down' }
        : { status: 200 };
    });
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      registrationId: a.registrationId,
      eventKey: `busy-${a.registrationId}`,
      message: 'Patience',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    const hits = forPath('/busy');
    // The schedule alone would have retried after about 1 s; the receiver asked for 3.
    expect(hits[1]!.receivedAt - hits[0]!.receivedAt).toBeGreaterThanOrEqual(2950);
  });

  it('deactivates a service whose receiver answers 410 Gone, without retrying', async () => {
    const a = await webhookAlert('/gone');
    hook.setAnswer((req) => (req.path === '/gone' ? { status: 410, body: 'unsubscribed' } : { status: 200 }));
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      registrationId: a.registrationId,
      eventKey: `gone-${a.registrationId}`,
      message: 'Anyone there?',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({
      status: 'FAILURE',
      attempts: 1,
      error: 'Webhook receiver answered 410: unsubscribed',
    });
    const me = await t.request({ method: 'GET', url: '/api/users/me', token: a.user.token });
    const service = me
      .json<{ data: { notificationServices: NotificationService[] } }>()
      .data.notificationServices.find((s) => s.id === a.service.id);
    expect(service).toMatchObject({ isActive: false });
    expect(service?.deactivatedReason).toMatch(/410 Gone/);
    // A later notification of the alert skips the deactivated service.
    const next = await t.services.notifications.createNotification({
      userId: a.user.id,
      registrationId: a.registrationId,
      eventKey: `gone-2-${a.registrationId}`,
      message: 'Again',
    });
    expect(await deliveries(next.notificationId)).toHaveLength(0);
    expect(forPath('/gone')).toHaveLength(1);
  });

  it('fails at once, without retrying, a delivery to an address the guard refuses', async () => {
    const a = await webhookAlert('/moved');
    // The stored URL now points at a private address (saved before the rules, or DNS changed).
    await t.db
      .updateTable('notification_services')
      .set({ config: JSON.stringify({ ...a.service.config, url: 'http://10.20.30.40/hook' }) })
      .where('id', '=', a.service.id)
      .execute();
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      registrationId: a.registrationId,
      eventKey: `moved-${a.registrationId}`,
      message: 'Nope',
    });
    const [row] = await settled(notificationId, 1);
    expect(row).toMatchObject({ status: 'FAILURE', attempts: 1 });
    expect(row!.error).toMatch(/10\.20\.30\.40/);
  });
});
