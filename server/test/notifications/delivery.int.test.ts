import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver, startSmtpSink, waitFor } from '../helpers/receivers.ts';
import {
  createAlertLinkedTo,
  createService,
  deliveriesOf,
  historyOf,
  primaryEmailService,
  settledDeliveries,
  verifyStandardWebhook,
  webhookAlert as webhookAlertOf,
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
    deliveries: true,
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
});
afterAll(async () => {
  await t.close();
  await Promise.all([hook.close(), slack.close(), smsApi.close(), smtp.close()]);
});

const deliveries = (notificationId: string) => deliveriesOf(t, notificationId);
const settled = (notificationId: string, count: number) => settledDeliveries(t, notificationId, count);
const history = (user: TestUser, query = '') => historyOf(t, user, query);
const forPath = (path: string) => hook.requests.filter((r) => r.path === path);
const webhookAlert = (path: string, config: Record<string, unknown> = {}) =>
  webhookAlertOf(t, hook, path, config);

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
    const { alertId, templateId } = await createAlertLinkedTo(
      t,
      user,
      [webhook.id, slackService.id, inactiveSlack.id, sms.id, email.id],
      { title: 'Spring <break>', partyName: 'The Smiths' },
    );

    const message = 'Deluxe room "Lake view" is available for $420 & up';
    const result = await t.services.notifications.createNotification({
      userId: user.id,
      alertId,
      eventKey: `fanout-${alertId}`,
      kind: 'MATCH',
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
      alert: alertId,
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

    // The same event again creates nothing and puts nothing back in the outbox.
    const again = await t.services.notifications.createNotification({
      userId: user.id,
      alertId,
      eventKey: `fanout-${alertId}`,
      kind: 'MATCH',
      message: 'duplicate',
    });
    expect(again).toEqual({ notificationId: result.notificationId, created: false });
    const after = await deliveries(result.notificationId);
    expect(after).toHaveLength(4);
    expect(after.every((d) => d.status === 'SUCCESS' && d.attempts === 1 && d.next_attempt_at === null)).toBe(
      true,
    );

    const records = await history(user);
    expect(records).toHaveLength(4);
    expect(records[0]).toMatchObject({
      notificationId: result.notificationId,
      message,
      status: 'SUCCESS',
      registration: {
        id: alertId,
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
        alertId: a.alertId,
        eventKey: `body-${a.alertId}`,
        kind: 'MATCH',
        message: 'Rooms open',
      });
    }
    await waitFor(
      () => forPath('/text').length && forPath('/blank').length && forPath('/get').length,
      'three webhooks',
    );
    const [asText] = forPath('/text');
    expect(asText!.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(asText!.body).toBe(`Alert ${text.alertId}: Rooms open`);
    expect(verifyStandardWebhook(text.service.signingSecret!, asText!.headers, asText!.body)).toBe(true);
    const [none] = forPath('/blank');
    expect(none!.body).toBe('');
    expect(none!.headers['content-type']).toBeUndefined();
    expect(verifyStandardWebhook(blank.service.signingSecret!, none!.headers, '')).toBe(true);
    expect(forPath('/get')[0]!.method).toBe('GET');
    expect(forPath('/get')[0]!.body).toBe('');
  });
});
