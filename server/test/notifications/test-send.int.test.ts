import type { NotificationService } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver, startSmtpSink } from '../helpers/receivers.ts';
import { createService, markVerified, verifyStandardWebhook } from './fixtures.ts';

let t: TestApp;
let bare: TestApp;
let hook: HttpReceiver;
let smsApi: HttpReceiver;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  [hook, smsApi, smtp] = await Promise.all([
    startHttpReceiver((req) =>
      req.path === '/broken' ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' },
    ),
    startHttpReceiver((req) =>
      new URLSearchParams(req.body).get('To') === 'not-a-number'
        ? {
            status: 400,
            headers: { 'content-type': 'application/json' },
            body: '{"code":21211,"message":"The \'To\' number not-a-number is not a valid phone number."}',
          }
        : { status: 201, headers: { 'content-type': 'application/json' }, body: '{"sid":"SM1"}' },
    ),
    startSmtpSink(),
  ]);
  [t, bare] = await Promise.all([
    startTestApp({
      env: {
        OUTBOUND_ALLOWLIST: '127.0.0.1',
        SMTP_URL: smtp.url,
        SMS_API_URL: smsApi.url,
        SMS_ACCOUNT_SID: 'AC9',
        SMS_AUTH_TOKEN: 'tok',
        SMS_FROM: '+15550000000',
      },
    }),
    // No SMTP_URL and no SMS provider: the log transports.
    startTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.1' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t.close(), bare.close()]);
  await Promise.all([hook.close(), smsApi.close(), smtp.close()]);
});

async function sendTest(app: TestApp, user: TestUser, body: unknown) {
  const res = await app.request({
    method: 'POST',
    url: '/api/users/me/notification-services/test',
    token: user.token,
    body,
  });
  return { status: res.statusCode, body: res.json<{ data?: { message: string }; message?: string }>() };
}

/**
 * An e-mail or SMS test goes only to a verified channel: the form of a saved channel, verified,
 * whose destination is the one tested (the account's one channel of the type is pointed there).
 */
async function verifiedForm(
  app: TestApp,
  user: TestUser,
  body: { type: 'EMAIL'; config: { toEmail: string } } | { type: 'SMS'; config: { toNumber: string } },
) {
  const list = await app.request({
    method: 'GET',
    url: '/api/users/me/notification-services',
    token: user.token,
  });
  const saved = list.json<{ data: NotificationService[] }>().data.find((s) => s.type === body.type);
  if (!saved) return { ...body, id: (await createService(app, user, body)).id };
  const res = await app.request({
    method: 'PATCH',
    url: `/api/users/me/notification-services/${saved.id}`,
    token: user.token,
    body: { config: body.config },
  });
  expect(res.statusCode).toBe(200);
  await markVerified(app, saved);
  return { ...body, id: saved.id };
}

async function recordCounts(app: TestApp) {
  const [n, d] = await Promise.all([
    app.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .executeTakeFirstOrThrow(),
    app.db
      .selectFrom('notification_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('c'))
      .executeTakeFirstOrThrow(),
  ]);
  return [Number(n.c), Number(d.c)];
}

describe('test notifications', () => {
  it('sends a real signed webhook and answers the success message, recording nothing', async () => {
    const user = await createUser(t);
    const res = await sendTest(t, user, {
      type: 'WEBHOOK',
      config: { url: `${hook.url}/try`, headers: [{ name: 'X-Team', value: 'ops' }] },
    });
    expect(res).toEqual({
      status: 200,
      body: { data: { message: 'Test notification dispatched successfully.' } },
    });
    const hit = hook.requests.find((r) => r.path === '/try')!;
    expect(hit.method).toBe('POST');
    expect(hit.headers['x-team']).toBe('ops');
    expect(JSON.parse(hit.body)).toEqual({
      content: 'This is a test notification from Resort Alerts. Your channel works.',
    });
    expect(hit.headers['webhook-id']).toMatch(/^test_/);
    expect(hit.headers['webhook-signature']).toMatch(/^v1,/);
    expect(await recordCounts(t)).toEqual([0, 0]);
  });

  it('signs with the saved service secret when the test names the service', async () => {
    const user = await createUser(t);
    const saved = await createService(t, user, { type: 'WEBHOOK', config: { url: `${hook.url}/saved` } });
    const res = await sendTest(t, user, {
      id: saved.id,
      type: 'WEBHOOK',
      config: { url: `${hook.url}/saved`, bodyTemplate: 'at {{metadata.timestamp}}' },
    });
    expect(res.status).toBe(200);
    const hit = hook.requests.find((r) => r.path === '/saved')!;
    expect(hit.body).toMatch(/^at \d{4}-\d{2}-\d{2}T/);
    expect(verifyStandardWebhook(saved.signingSecret!, hit.headers, hit.body)).toBe(true);
  });

  it("answers the receiver's failure clearly", async () => {
    const user = await createUser(t);
    const res = await sendTest(t, user, { type: 'WEBHOOK', config: { url: `${hook.url}/broken` } });
    expect(res).toEqual({
      status: 502,
      body: {
        code: 'BAD_GATEWAY',
        message: 'Failed to dispatch test notification. Webhook receiver answered 500: boom',
      },
    });
    const refused = await sendTest(t, user, {
      type: 'WEBHOOK',
      config: { url: 'http://127.0.0.1:1/closed' },
    });
    expect(refused.status).toBe(502);
    expect(refused.body.message).toMatch(/^Failed to dispatch test notification\. Connection refused/);
    const blocked = await sendTest(t, user, {
      type: 'SLACK_WEBHOOK',
      config: { url: 'http://10.0.0.1/hook' },
    });
    expect(blocked.status).toBe(400);
    expect(blocked.body.message).toMatch(/private or reserved/);
    const invalid = await sendTest(t, user, { type: 'WEBHOOK', config: { url: 'nope' } });
    expect(invalid).toMatchObject({ status: 400, body: { message: 'Webhook URL must be a valid URL' } });
  });

  it('sends a Slack test', async () => {
    const user = await createUser(t);
    const res = await sendTest(t, user, {
      type: 'SLACK_WEBHOOK',
      config: { url: `${hook.url}/slack`, username: 'Bot' },
    });
    expect(res.status).toBe(200);
    const hit = hook.requests.find((r) => r.path === '/slack')!;
    expect(JSON.parse(hit.body)).toEqual({
      text: '*Resort Alerts test*\nThis is a test notification from Resort Alerts. Your channel works.',
      username: 'Bot',
    });
  });

  it('sends a test e-mail over SMTP, and says why the server refused one', async () => {
    const user = await createUser(t);
    const res = await sendTest(
      t,
      user,
      await verifiedForm(t, user, { type: 'EMAIL', config: { toEmail: 'planner@example.test' } }),
    );
    expect(res.body).toEqual({ data: { message: 'Test notification dispatched successfully.' } });
    const mail = smtp.messages.find((m) => m.envelopeTo.includes('planner@example.test'))!;
    expect(mail.subject).toBe('Resort Alerts: Test notification');
    expect(mail.text).toContain('This is a test notification from Resort Alerts.');
    expect(mail.html).toContain('<h2');
    const bounced = await sendTest(
      t,
      user,
      await verifiedForm(t, user, { type: 'EMAIL', config: { toEmail: 'nobody@bounce.test' } }),
    );
    expect(bounced.status).toBe(502);
    expect(bounced.body.message).toBe(
      'Failed to dispatch test notification. The e-mail server refused the message: 550 5.1.1 Mailbox does not exist',
    );
  });

  it("sends a test SMS through the provider's API, and says why the provider refused one", async () => {
    const user = await createUser(t);
    const ok = await sendTest(
      t,
      user,
      await verifiedForm(t, user, { type: 'SMS', config: { toNumber: '+15551112222' } }),
    );
    expect(ok.status).toBe(200);
    const hit = smsApi.requests.find((r) => new URLSearchParams(r.body).get('To') === '+15551112222')!;
    expect(hit.path).toBe('/2010-04-01/Accounts/AC9/Messages.json');
    expect(new URLSearchParams(hit.body).get('Body')).toBe(
      'Resort Alerts test\nThis is a test notification from Resort Alerts. Your channel works.',
    );
    const refused = await sendTest(
      t,
      user,
      await verifiedForm(t, user, { type: 'SMS', config: { toNumber: 'not-a-number' } }),
    );
    expect(refused).toEqual({
      status: 502,
      body: {
        code: 'BAD_GATEWAY',
        message:
          "Failed to dispatch test notification. The SMS provider refused the message: The 'To' number not-a-number is not a valid phone number.",
      },
    });
  });

  it('says so when e-mail and SMS go to the log because nothing is configured', async () => {
    const user = await createUser(bare);
    const email = await sendTest(
      bare,
      user,
      await verifiedForm(bare, user, { type: 'EMAIL', config: { toEmail: 'planner@example.test' } }),
    );
    expect(email).toEqual({
      status: 200,
      body: {
        data: {
          message: 'SMTP is not configured: the e-mail was written to the server log instead of being sent.',
        },
      },
    });
    const sms = await sendTest(
      bare,
      user,
      await verifiedForm(bare, user, { type: 'SMS', config: { toNumber: '+1555' } }),
    );
    expect(sms.body.data?.message).toBe(
      'No SMS provider is configured: the text was written to the server log instead of being sent.',
    );
  });
});
