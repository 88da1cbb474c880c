import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver } from '../helpers/receivers.ts';
import { settledDeliveries, startFastRetryApp, webhookAlert } from './fixtures.ts';

/**
 * A delivery worker holding nothing sleeps until its next delivery comes due (docs/decisions.md, "An
 * idle engine sleeps until the next due time"): with the safety net ten minutes away, a retry still
 * goes out at its due time, and a new delivery at once (its NOTIFY).
 */
let t: TestApp;
let hook: HttpReceiver;

beforeAll(async () => {
  hook = await startHttpReceiver();
  t = await startFastRetryApp({ DELIVERY_IDLE_POLL_MS: '600000' });
});
afterAll(async () => {
  await t.close();
  await hook.close();
});

describe('an idle delivery worker', () => {
  it('wakes for a new delivery at once and for its retry at the retry’s due time', async () => {
    const a = await webhookAlert(t, hook, '/sleepy');
    let calls = 0;
    hook.setAnswer((req) => {
      if (req.path !== '/sleepy') return { status: 200 };
      calls++;
      return calls === 1 ? { status: 500, body: 'once' } : { status: 200 };
    });
    const createdAt = Date.now();
    const { notificationId } = await t.services.notifications.createNotification({
      userId: a.user.id,
      alertId: a.alertId,
      eventKey: `sleepy-${a.alertId}`,
      kind: 'MATCH',
      message: 'Wake up',
    });
    const [row] = await settledDeliveries(t, notificationId, 1);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2 });
    const hits = hook.requests.filter((r) => r.path === '/sleepy');
    expect(hits).toHaveLength(2);
    expect(hits[0]!.receivedAt - createdAt).toBeLessThan(2000);
    // The retry's 1-second backoff, and not the ten-minute safety net.
    expect(hits[1]!.receivedAt - hits[0]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(hits[1]!.receivedAt - hits[0]!.receivedAt).toBeLessThan(5000);
  });
});
