import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/receivers.ts';
import {
  createAlertLinkedTo,
  createService,
  historyOf,
  settledDeliveries,
} from '../notifications/fixtures.ts';

/**
 * Fault drill (docs/performance.md): a webhook receiver that accepts the request and never answers. Each
 * attempt must be abandoned at the delivery timeout (the receiver sees us hang up) and retried with
 * the same webhook-id; the outcome is visible in the history.
 */
interface Hit {
  path: string;
  webhookId: string;
  answered: boolean;
  /** The sender closed the connection while we held the answer back. */
  abandoned: boolean;
}

let t: TestApp;
let receiver: Server;
let base: string;
const hits: Hit[] = [];
/** Per path: how many requests to hold without answering before answering 200. */
const holdFirst = new Map<string, number>();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const path = req.url ?? '';
    const hit: Hit = {
      path,
      webhookId: String(req.headers['webhook-id']),
      answered: false,
      abandoned: false,
    };
    hits.push(hit);
    const seen = hits.filter((h) => h.path === path).length;
    req.resume();
    if (seen <= (holdFirst.get(path) ?? 0)) {
      res.on('close', () => {
        if (!hit.answered) hit.abandoned = true;
      });
      return;
    }
    hit.answered = true;
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await startTestApp({
    boss: true,
    deliveries: true,
    env: {
      OUTBOUND_ALLOWLIST: '127.0.0.1',
      DELIVERY_TIMEOUT_MS: '500',
      DELIVERY_RETRY_BASE_SECONDS: '1',
      DELIVERY_RETRY_MAX_DELAY_SECONDS: '1',
      DELIVERY_MAX_ATTEMPTS: '3',
    },
  });
});
afterAll(async () => {
  await t.close();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function notify(path: string) {
  const user = await createUser(t);
  const service = await createService(t, user, {
    type: 'WEBHOOK',
    label: path,
    config: { url: `${base}${path}` },
  });
  const alert = await createAlertLinkedTo(t, user, [service.id]);
  const { notificationId } = await t.services.notifications.createNotification({
    userId: user.id,
    alertId: alert.alertId,
    eventKey: `timeout-drill-${path}-${alert.alertId}`,
    kind: 'MATCH',
    message: 'Rooms are open',
  });
  return { user, notificationId };
}

describe('a webhook receiver that times out', () => {
  it('has the attempt abandoned at the delivery timeout and retried, ending SUCCESS when it answers', async () => {
    holdFirst.set('/slow-once', 1);
    const { user, notificationId } = await notify('/slow-once');
    const [row] = await settledDeliveries(t, notificationId, 1);
    expect(row).toMatchObject({ status: 'SUCCESS', attempts: 2, error: null });
    const attempts = hits.filter((h) => h.path === '/slow-once');
    expect(attempts).toHaveLength(2);
    await waitFor(() => attempts[0]!.abandoned, 'the first attempt to be abandoned');
    expect(attempts[1]!.answered).toBe(true);
    // A retry is the same delivery: receivers de-duplicate on webhook-id.
    expect(attempts[1]!.webhookId).toBe(attempts[0]!.webhookId);
    expect((await historyOf(t, user))[0]).toMatchObject({ status: 'SUCCESS', attempts: 2 });
  });

  it('ends FAILURE with a timeout error, visible in the history, when it never answers', async () => {
    holdFirst.set('/never', Number.POSITIVE_INFINITY);
    const { user, notificationId } = await notify('/never');
    const [row] = await settledDeliveries(t, notificationId, 1);
    expect(row).toMatchObject({ status: 'FAILURE', attempts: 3 });
    expect(row!.error).toMatch(/timed out/i);
    const attempts = hits.filter((h) => h.path === '/never');
    expect(attempts).toHaveLength(3);
    await waitFor(() => attempts.every((a) => a.abandoned), 'every attempt to be abandoned');
    expect((await historyOf(t, user))[0]).toMatchObject({ status: 'FAILURE', attempts: 3 });
  });
});
