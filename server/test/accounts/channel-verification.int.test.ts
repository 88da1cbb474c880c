import { channelVerificationMessages as m, type NotificationService } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver, startSmtpSink, waitFor } from '../helpers/receivers.ts';
import { createAlertLinkedTo, settledDeliveries } from '../notifications/fixtures.ts';

/**
 * E-mail and SMS channels receive nothing but their code until verified, and at most
 * CHANNEL_SENDS_PER_HOUR messages an hour after: real SMTP and SMS receivers count what arrives.
 */
let t: TestApp;
let smsApi: HttpReceiver;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let user: TestUser;

beforeAll(async () => {
  [smsApi, smtp] = await Promise.all([
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
      SMS_API_URL: smsApi.url,
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 'tok',
      SMS_FROM: '+15550000000',
      CHANNEL_SENDS_PER_HOUR: '2',
    },
  });
  user = await createUser(t);
});
afterAll(async () => {
  await t.close();
  await Promise.all([smsApi.close(), smtp.close()]);
});

const api = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.request({ method, url: `/api/users/me/notification-services${url}`, token: user.token, body });
const textsTo = (number: string) =>
  smsApi.requests.filter((r) => new URLSearchParams(r.body).get('To') === number);

let eventNo = 0;
async function notify(alertId: string) {
  const result = await t.services.notifications.createNotification({
    userId: user.id,
    alertId,
    eventKey: `verification-${alertId}-${++eventNo}`,
    kind: 'MATCH',
    message: 'A room is available',
    metadata: {},
  });
  return result.notificationId;
}

describe('verified destinations', () => {
  it('skips unverified channels with the reason, verifies by code, then caps sends per hour', async () => {
    const created = await api('POST', '', { type: 'SMS', config: { toNumber: '+15550123' } });
    const sms = created.json<{ data: NotificationService }>().data;
    expect(sms.verification).toBe('unverified');
    const list = await api('GET', '');
    const email = list.json<{ data: NotificationService[] }>().data.find((s) => s.type === 'EMAIL')!;
    expect(email.verification).toBe('unverified');

    // Nothing but the code: no test send, no alert message.
    const test = await api('POST', '/test', { id: sms.id, type: 'SMS', config: { toNumber: '+15550123' } });
    expect(test.statusCode).toBe(400);
    expect(test.json<{ message: string }>().message).toBe(m.testNeedsVerification);
    const { alertId } = await createAlertLinkedTo(t, user, [sms.id, email.id]);
    const skipped = await settledDeliveries(t, await notify(alertId), 2);
    expect(skipped.map((d) => [d.status, d.error, d.attempts])).toEqual([
      ['FAILURE', m.skippedUnverified, 0],
      ['FAILURE', m.skippedUnverified, 0],
    ]);
    expect(textsTo('+15550123')).toEqual([]);
    expect(smtp.messages.filter((x) => x.envelopeTo.includes(user.email))).toEqual([]);

    // The code, sent to the number; a wrong one is refused, the right one verifies.
    expect((await api('POST', `/${sms.id}/verification`)).statusCode).toBe(200);
    const [text] = await waitFor(() => textsTo('+15550123').length > 0 && textsTo('+15550123'), 'the code');
    const code = /\b(\d{6})\b/.exec(new URLSearchParams(text!.body).get('Body') ?? '')![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await api('POST', `/${sms.id}/verify`, { code: wrong })).statusCode).toBe(400);
    const verified = await api('POST', `/${sms.id}/verify`, { code });
    expect(verified.json<{ data: NotificationService }>().data.verification).toBe('verified');

    // Two messages an hour at most: the third is skipped with the cap as its reason.
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      const [row] = (await settledDeliveries(t, await notify(alertId), 2)).filter(
        (d) => d.notification_service_id === sms.id,
      );
      outcomes.push([row!.status, row!.error]);
    }
    expect(outcomes).toEqual([
      ['SUCCESS', null],
      ['SUCCESS', null],
      ['FAILURE', m.skippedOverCap(2)],
    ]);
    expect(textsTo('+15550123')).toHaveLength(3); // the code and two alerts
  });

  it("verifies the account's own address through its e-mail channel's code", async () => {
    const list = await api('GET', '');
    const email = list.json<{ data: NotificationService[] }>().data.find((s) => s.type === 'EMAIL')!;
    expect((await api('POST', `/${email.id}/verification`)).statusCode).toBe(200);
    const [mail] = await waitFor(() => {
      const found = smtp.messages.filter((x) => x.envelopeTo.includes(user.email));
      return found.length > 0 && found;
    }, 'the code e-mail');
    const code = /\b(\d{6})\b/.exec(mail!.text ?? '')![1]!;
    const res = await api('POST', `/${email.id}/verify`, { code });
    expect(res.json<{ data: NotificationService }>().data.verification).toBe('verified');
    const row = await t.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(row?.email_verified_at).not.toBeNull();
  });
});
