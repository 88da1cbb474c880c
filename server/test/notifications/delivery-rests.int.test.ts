import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver, startSmtpSink, waitFor } from '../helpers/receivers.ts';
import { createAlertLinkedTo, createService, primaryEmailService } from './fixtures.ts';

/**
 * A failing service rests alone where its destination is a provider every user shares: Slack's one
 * host, the one SMTP server (docs/decisions.md, "Per-destination caps and per-service rests"). One
 * at a time per destination, so the order of arrivals shows who waited for whom: the other user's
 * delivery arrives while the failing one rests, before its next attempt.
 */

let t: TestApp;
let slack: HttpReceiver;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let greylisted = '';

beforeAll(async () => {
  slack = await startHttpReceiver((req) => (req.path === '/services/A' ? { status: 500 } : { status: 200 }));
  smtp = await startSmtpSink({ greylisted: (address) => address === greylisted });
  t = await startTestApp({
    deliveries: true,
    env: {
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      SMTP_URL: smtp.url,
      DELIVERY_HOST_CONCURRENCY: '1',
      // No retry of the failed deliveries within the test: every attempt seen is a new delivery's.
      DELIVERY_RETRY_BASE_SECONDS: '3600',
    },
  });
});
afterAll(async () => {
  await t.close();
  await slack.close();
  await smtp.close();
});

/** `count` notifications of one alert of `user`, linked to `serviceId`, in one hand-off. */
async function notify(user: TestUser, serviceId: string, count: number, tag: string) {
  const { alertId } = await createAlertLinkedTo(t, user, [serviceId]);
  await t.services.notifications.createNotifications(
    Array.from({ length: count }, (_, i) => ({
      userId: user.id,
      alertId,
      eventKey: `${tag}-${alertId}-${i}`,
      kind: 'MATCH' as const,
      message: `Rooms open ${i}`,
    })),
  );
}

/** Waits until `n` deliveries of the service are recorded as failed attempts (its rests have grown). */
function failedAttempts(serviceId: string, n: number) {
  return waitFor(async () => {
    const rows = await t.db
      .selectFrom('notification_deliveries')
      .select('attempts')
      .where('notification_service_id', '=', serviceId)
      .where('attempts', '>', 0)
      .execute();
    return rows.length >= n;
  }, `${n} failed attempts of service ${serviceId}`);
}

describe('rests per service on shared providers', { timeout: 60_000 }, () => {
  it("sends another user's Slack message while one user's failing Slack hook rests", async () => {
    const failing = await createUser(t);
    const healthy = await createUser(t);
    const failingSlack = await createService(t, failing, {
      type: 'SLACK_WEBHOOK',
      config: { url: `${slack.url}/services/A` },
    });
    const healthySlack = await createService(t, healthy, {
      type: 'SLACK_WEBHOOK',
      config: { url: `${slack.url}/services/B` },
    });
    // Five failures in a row: the failing hook now rests 8 s (0.5 s doubling).
    await notify(failing, failingSlack.id, 8, 'slack-failing');
    await failedAttempts(failingSlack.id, 5);

    await notify(healthy, healthySlack.id, 1, 'slack-healthy');
    await waitFor(() => slack.requests.some((r) => r.path === '/services/B'), 'the healthy Slack message');
    const paths = slack.requests.map((r) => r.path);
    // It did not wait for the failing hook's rest: its next attempt comes after.
    expect(paths.slice(0, paths.indexOf('/services/B'))).toEqual(Array(5).fill('/services/A'));
  });

  it("sends another user's e-mail while one user's greylisted mailbox rests", async () => {
    const failing = await createUser(t);
    const healthy = await createUser(t);
    greylisted = failing.email;
    const failingEmail = await primaryEmailService(t, failing);
    const healthyEmail = await primaryEmailService(t, healthy);
    await notify(failing, failingEmail.id, 8, 'email-failing');
    await failedAttempts(failingEmail.id, 5);

    await notify(healthy, healthyEmail.id, 1, 'email-healthy');
    await smtp.waitForMessages(1);
    expect(smtp.messages[0]!.envelopeTo).toEqual([healthy.email]);
    // The greylisted mailbox was tried five times, then rested while the other message went through.
    expect(smtp.recipients).toEqual([...Array(5).fill(failing.email), healthy.email]);
  });
});
