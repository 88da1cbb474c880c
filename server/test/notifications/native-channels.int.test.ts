import type { NotificationService } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  type HttpReceiver,
  type ReceivedRequest,
  startHttpReceiver,
  startSmtpSink,
} from '../helpers/receivers.ts';
import {
  createAlertLinkedTo,
  createService,
  primaryEmailService,
  settledDeliveries,
  startFastRetryApp,
} from './fixtures.ts';

/**
 * NTFY, PUSHOVER, TELEGRAM, DISCORD and TEAMS against one loopback server standing in for each
 * provider (Pushover's and Telegram's bases are configured to it, the others are user URLs). Each
 * request is checked as the provider documents it; each channel's first answer is a 503, so each
 * test also sees the outbox retry it.
 */
let t: TestApp;
let provider: HttpReceiver;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const PUBLIC_URL = 'https://alerts.example.test';
const PUSHOVER_USER = 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG';
const PUSHOVER_APP = 'azGDORePK8gMaC0QOYAMyEEuzJnyUi';
const BOT_TOKEN = '123456789:AAH4bQk-Y3ExampleTokenValue_abcdef12';

beforeAll(async () => {
  provider = await startHttpReceiver();
  smtp = await startSmtpSink();
  t = await startFastRetryApp({
    PUSHOVER_API_URL: provider.url,
    TELEGRAM_API_URL: `${provider.url}/tg`,
    PUBLIC_URL,
    SMTP_URL: smtp.url,
    SMS_API_URL: `${provider.url}/twilio`,
    SMS_ACCOUNT_SID: 'AC0123',
    SMS_AUTH_TOKEN: 'sms-token',
    SMS_FROM: '+15550000',
  });
});
afterAll(async () => {
  await t.close();
  await provider.close();
  await smtp.close();
});

/** The first request to `path` answers 503, the ones after it `then` (200 by default). */
function failOnceAt(path: string, then: () => { status: number; body?: string } = () => ({ status: 200 })) {
  let seen = 0;
  provider.setAnswer((req) => {
    if (!req.path.startsWith(path)) return { status: 200 };
    seen++;
    return seen === 1 ? { status: 503, body: 'busy' } : then();
  });
}

async function notifyThrough(user: TestUser, service: NotificationService, title = 'Spring break') {
  const { alertId } = await createAlertLinkedTo(t, user, [service.id], { title, partyName: 'The Smiths' });
  const { notificationId } = await t.services.notifications.createNotification({
    userId: user.id,
    alertId,
    eventKey: `native-${alertId}`,
    kind: 'MATCH',
    message: `Alert "${title}" matched (Grand Floridian, party The Smiths): 2 rooms available at $689.`,
  });
  const [row] = await settledDeliveries(t, notificationId, 1);
  return { row: row!, alertId, link: `${PUBLIC_URL}/alerts/${alertId}` };
}

function at(path: string): ReceivedRequest[] {
  return provider.requests.filter((r) => r.path.startsWith(path));
}

/** The two attempts at `prefix` (the 503, then the retry) were the same POST; answers the second. */
function retriedPost(prefix: string, contentType = 'application/json'): ReceivedRequest {
  const hits = at(prefix);
  expect(hits).toHaveLength(2);
  expect(hits[0]!.body).toBe(hits[1]!.body);
  const req = hits[1]!;
  expect(req.method).toBe('POST');
  expect(req.headers['content-type']).toBe(contentType);
  return req;
}

describe('native channels', () => {
  it('NTFY publishes JSON to the server with the bearer token, priority and click, and retries a 503', async () => {
    const user = await createUser(t);
    const service = await createService(t, user, {
      type: 'NTFY',
      label: 'Phone',
      config: {
        url: `${provider.url}/ntfy`,
        topic: 'resort-openings',
        token: 'tk_0123456789abcdefghij',
        priority: 4,
      },
    });
    expect(service.config).toMatchObject({ topic: 'resort-openings', token: '••••••••ghij' });
    failOnceAt('/ntfy');
    const { row, link } = await notifyThrough(user, service);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    const req = retriedPost('/ntfy');
    expect(req.path).toBe('/ntfy');
    expect(req.headers.authorization).toBe('Bearer tk_0123456789abcdefghij');
    expect(JSON.parse(req.body)).toEqual({
      topic: 'resort-openings',
      title: 'Spring break',
      message: expect.stringContaining('2 rooms available at $689'),
      priority: 4,
      click: link,
      tags: ['tada'],
    });
  });

  it('PUSHOVER posts the form to /1/messages.json with token, user, url and priority; a 4xx is not retried', async () => {
    const user = await createUser(t);
    const service = await createService(t, user, {
      type: 'PUSHOVER',
      label: null,
      config: { userKey: PUSHOVER_USER, appToken: PUSHOVER_APP },
    });
    expect(service.config).toEqual({ userKey: '••••••••VRsG', appToken: '••••••••nyUi' });
    failOnceAt('/1/messages.json', () => ({ status: 200, body: '{"status":1,"request":"abc"}' }));
    const { row, link } = await notifyThrough(user, service);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    const req = retriedPost('/1/messages.json', 'application/x-www-form-urlencoded');
    const form = Object.fromEntries(new URLSearchParams(req.body));
    expect(form).toMatchObject({
      token: PUSHOVER_APP,
      user: PUSHOVER_USER,
      title: 'Spring break',
      url: link,
      url_title: 'Open the alert',
      priority: '0',
    });
    expect(form.message).toContain('2 rooms available at $689');
    expect(form.retry).toBeUndefined();

    // Pushover's 4xx means the input is wrong: failed at once, with its error, no retry.
    provider.setAnswer((r) =>
      r.path.startsWith('/1/messages.json')
        ? { status: 400, body: '{"user":"invalid","errors":["user identifier is invalid"],"status":0}' }
        : { status: 200 },
    );
    const again = await notifyThrough(user, service, 'Summer');
    expect(again.row).toMatchObject({ status: 'FAILURE', attempts: 1 });
    expect(again.row.error).toContain('user identifier is invalid');
  });

  it('TELEGRAM calls sendMessage on the bot path with MarkdownV2 text and retries a 503', async () => {
    const user = await createUser(t);
    const service = await createService(t, user, {
      type: 'TELEGRAM',
      label: null,
      config: { botToken: BOT_TOKEN, chatId: '-1001234567890' },
    });
    expect(service.config).toEqual({ botToken: '••••••••ef12', chatId: '-1001234567890' });
    failOnceAt('/tg/bot', () => ({ status: 200, body: '{"ok":true,"result":{}}' }));
    const { row, link } = await notifyThrough(user, service);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    const req = retriedPost('/tg/bot');
    expect(req.path).toBe(`/tg/bot${BOT_TOKEN}/sendMessage`);
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      chat_id: '-1001234567890',
      parse_mode: 'MarkdownV2',
      disable_notification: false,
      link_preview_options: { is_disabled: true },
    });
    expect(body.text).toContain('*Spring break*');
    expect(body.text).toContain('2 rooms available at $689\\.');
    expect(body.text).toContain(`[Open the alert](${link})`);
  });

  it('DISCORD posts an embed to the webhook URL and retries a 503', async () => {
    const user = await createUser(t);
    const url = `${provider.url}/api/webhooks/123/secret-token-abcd`;
    const service = await createService(t, user, {
      type: 'DISCORD',
      label: null,
      config: { url, username: 'Resort Alerts' },
    });
    expect(service.config).toEqual({ url: '••••••••abcd', username: 'Resort Alerts' });
    failOnceAt('/api/webhooks/123', () => ({ status: 204, body: '' }));
    const { row, link } = await notifyThrough(user, service);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    const req = retriedPost('/api/webhooks/123');
    expect(req.path).toBe('/api/webhooks/123/secret-token-abcd?wait=true');
    const body = JSON.parse(req.body);
    expect(body.username).toBe('Resort Alerts');
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds).toHaveLength(1);
    expect(body.embeds[0]).toMatchObject({ title: 'Spring break', url: link });
    expect(body.embeds[0].description).toContain('2 rooms available at $689');
    expect(body.embeds[0].fields).toContainEqual({ name: 'Party', value: 'The Smiths', inline: true });
  });

  it('TEAMS posts an adaptive card message to the workflow URL and retries a 503', async () => {
    const user = await createUser(t);
    const url = `${provider.url}/workflows/abc/triggers/manual/paths/invoke?sig=s3cr3tsig`;
    const service = await createService(t, user, { type: 'TEAMS', label: null, config: { url } });
    expect(service.config).toEqual({ url: '••••••••tsig' });
    failOnceAt('/workflows/abc', () => ({ status: 202, body: '' }));
    const { row, link } = await notifyThrough(user, service);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    const req = retriedPost('/workflows/abc');
    expect(req.path).toBe('/workflows/abc/triggers/manual/paths/invoke?sig=s3cr3tsig');
    const body = JSON.parse(req.body);
    expect(body.type).toBe('message');
    expect(body.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(body.attachments[0].content.type).toBe('AdaptiveCard');
    expect(body.attachments[0].content.body[0].text).toBe('Spring break');
    expect(body.attachments[0].content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open the alert', url: link },
    ]);
  });
});

describe('one message everywhere', () => {
  it('Slack, e-mail and SMS say what the native channels say: heading, what opened and the alert page', async () => {
    const user = await createUser(t);
    const slack = await createService(t, user, {
      type: 'SLACK_WEBHOOK',
      label: null,
      config: { url: `${provider.url}/services/T0/B0/same` },
    });
    // The account's own e-mail channel, verified.
    const email = await primaryEmailService(t, user);
    const sms = await createService(t, user, { type: 'SMS', label: null, config: { toNumber: '+15550123' } });
    provider.setAnswer(() => ({ status: 200, body: '{}' }));
    const { alertId } = await createAlertLinkedTo(t, user, [slack.id, email.id, sms.id], {
      title: 'Same words',
    });
    const message = 'Alert "Same words" matched: 2 rooms available at $689.';
    const { notificationId } = await t.services.notifications.createNotification({
      userId: user.id,
      alertId,
      eventKey: `same-${alertId}`,
      kind: 'MATCH',
      message,
    });
    await settledDeliveries(t, notificationId, 3);
    const link = `${PUBLIC_URL}/alerts/${alertId}`;

    const slackText = JSON.parse(at('/services/T0/B0/same')[0]!.body).text as string;
    expect(slackText).toContain('*Same words*');
    expect(slackText).toContain('2 rooms available at $689');
    expect(slackText).toContain(`<${link}|Open the alert>`);

    const [mail] = await smtp.waitForMessages(1);
    expect(mail!.subject).toBe('Resort Alerts: Same words');
    expect(mail!.text).toContain(message);
    expect(mail!.text).toContain(`Open the alert: ${link}`);
    expect(mail!.html).toContain(`href="${link}"`);

    const smsBody = new URLSearchParams(at('/twilio')[0]!.body).get('Body')!;
    expect(smsBody).toBe(`Resort Alerts: Same words\n${message}\n${link}`);
  });
});

describe('native channel secrets', () => {
  it('never returns them in full, keeps them when the masked value comes back, and uses them in a test send', async () => {
    const user = await createUser(t);
    const service = await createService(t, user, {
      type: 'TELEGRAM',
      label: 'Family chat',
      config: { botToken: BOT_TOKEN, chatId: '@resortfamily' },
    });
    const list = await t.request({
      method: 'GET',
      url: '/api/users/me/notification-services',
      token: user.token,
    });
    expect(list.body).not.toContain(BOT_TOKEN);

    // The form sends the masked token back with a new chat: the stored token stays.
    const patched = await t.request({
      method: 'PATCH',
      url: `/api/users/me/notification-services/${service.id}`,
      token: user.token,
      body: { config: { botToken: (service.config as { botToken: string }).botToken, chatId: '-42' } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.body).not.toContain(BOT_TOKEN);
    const stored = await t.db
      .selectFrom('notification_services')
      .select('config')
      .where('id', '=', service.id)
      .executeTakeFirstOrThrow();
    expect(stored.config).toEqual({ botToken: BOT_TOKEN, chatId: '-42' });

    provider.setAnswer(() => ({ status: 200, body: '{"ok":true}' }));
    const before = at('/tg/bot').length;
    const test = await t.request({
      method: 'POST',
      url: '/api/users/me/notification-services/test',
      token: user.token,
      body: {
        id: service.id,
        type: 'TELEGRAM',
        label: null,
        config: { botToken: '••••••••ef12', chatId: '-42' },
      },
    });
    expect(test.statusCode).toBe(200);
    const sent = at('/tg/bot').slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe(`/tg/bot${BOT_TOKEN}/sendMessage`);
    expect(JSON.parse(sent[0]!.body).text).toContain('*Test notification*');

    // A masked value cannot create a channel: there is nothing stored to keep.
    const created = await t.request({
      method: 'POST',
      url: '/api/users/me/notification-services',
      token: user.token,
      body: { type: 'TELEGRAM', label: null, config: { botToken: '••••••••ef12', chatId: '-42' } },
    });
    expect(created.statusCode).toBe(400);
    expect(created.body).toContain('Enter the whole secret');
  });
});
