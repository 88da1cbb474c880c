import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptResult } from '../../src/modules/notifications/delivery-attempt.ts';
import { claimDueDeliveries } from '../../src/modules/notifications/notifications.repo.ts';
import type { TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver, waitFor } from '../helpers/receivers.ts';
import { startFastRetryApp, webhookAlert } from './fixtures.ts';

/**
 * Receivers' answers that PostgreSQL cannot store as they are (a NUL byte of a gzip error page, a
 * surrogate pair cut in half by the error snippet) are recorded like any other failure: the attempt
 * counts, the back-off applies, and the other outcomes of the same batch are recorded once.
 */

let t: TestApp;
let hook: HttpReceiver;

const GZIP_ERROR_PAGE = '\x1f\x8b\x08\0\0\0\0\0binary\0error page';
// 198 characters and two emoji: the 199-character snippet ends in the first emoji's high surrogate.
const CUT_EMOJI_PAGE = `${'x'.repeat(198)}😀😀`;

beforeAll(async () => {
  hook = await startHttpReceiver((req) => {
    if (req.path === '/binary') return { status: 500, body: GZIP_ERROR_PAGE };
    if (req.path === '/cut') return { status: 503, body: CUT_EMOJI_PAGE };
    return { status: 200 };
  });
  t = await startFastRetryApp({ DELIVERY_LEASE_SECONDS: '3' });
});
afterAll(async () => {
  await t.close();
  await hook.close();
});

const hitsOf = (path: string) => hook.requests.filter((r) => r.path === path);

function settledOf(serviceId: string) {
  return waitFor(async () => {
    const row = await t.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('notification_service_id', '=', serviceId)
      .executeTakeFirst();
    return row && row.status !== 'PENDING' && row;
  }, `the delivery of service ${serviceId} to settle`);
}

describe('outcomes PostgreSQL cannot store as they are', () => {
  it('records error pages holding NUL bytes or a cut surrogate pair, with their attempts and back-off', async () => {
    const binary = await webhookAlert(t, hook, '/binary');
    const cut = await webhookAlert(t, hook, '/cut');
    const fine = await webhookAlert(t, hook, '/fine');
    // One hand-off: claimed together, answered together, recorded in the same batches.
    await t.services.notifications.createNotifications(
      [binary, cut, fine].map((a) => ({
        userId: a.user.id,
        alertId: a.alertId,
        eventKey: `unstorable-${a.alertId}`,
        kind: 'MATCH' as const,
        message: 'Rooms open',
      })),
    );
    const binaryRow = await settledOf(binary.service.id);
    const cutRow = await settledOf(cut.service.id);
    const fineRow = await settledOf(fine.service.id);
    expect(binaryRow).toMatchObject({ status: 'FAILURE', attempts: 3 });
    expect(binaryRow.error).toBe(
      'Webhook receiver answered 500: \x1f\x8b\x08\uFFFD\uFFFD\uFFFD\uFFFD\uFFFDbinary\uFFFDerror page',
    );
    expect(cutRow).toMatchObject({ status: 'FAILURE', attempts: 3 });
    expect(cutRow.error).toBe(`Webhook receiver answered 503: ${'x'.repeat(198)}\uFFFD…`);
    expect(fineRow).toMatchObject({ status: 'SUCCESS', attempts: 1 });
    // Each attempt was sent once: no re-send at a lease's end.
    expect(hitsOf('/binary')).toHaveLength(3);
    expect(hitsOf('/cut')).toHaveLength(3);
    expect(hitsOf('/fine')).toHaveLength(1);
  });

  it('records the rest of a batch when one outcome cannot be stored, and that one with a fallback error', async () => {
    // Claimed by hand, so the outcomes can carry a text no channel would produce any more.
    await t.deliveryWorker!.stop();
    const a = await webhookAlert(t, hook, '/record-a');
    const b = await webhookAlert(t, hook, '/record-b');
    await t.services.notifications.createNotifications(
      [a, b].map((x) => ({
        userId: x.user.id,
        alertId: x.alertId,
        eventKey: `record-${x.alertId}`,
        kind: 'MATCH' as const,
        message: 'Rooms open',
      })),
    );
    const claimed = await claimDueDeliveries(t.db, {
      limit: 10,
      token: randomUUID(),
      leaseSeconds: 30,
      skipDestinations: [],
      skipServices: [],
    });
    const byService = new Map(claimed.map((d) => [d.serviceId, d]));
    const outcome = (serviceId: string, error: string): AttemptResult => {
      const d = byService.get(serviceId)!;
      return {
        outcome: {
          id: d.id,
          serviceId,
          claimToken: d.claimToken,
          previousAttempts: 0,
          status: 'PENDING',
          attempts: 1,
          error,
          retryInSeconds: 60,
          delivered: false,
        },
        destinationFailed: true,
        deactivateReason: null,
        removeService: false,
        failure: null,
      };
    };
    const recorded = await t.services.notifications.recordAttempts([
      outcome(a.service.id, 'receiver answered 500: a\0b'),
      outcome(b.service.id, 'receiver answered 502: bad gateway'),
    ]);
    expect(recorded).toEqual(new Set([byService.get(a.service.id)!.id, byService.get(b.service.id)!.id]));
    const rows = await t.db
      .selectFrom('notification_deliveries')
      .select(['notification_service_id', 'status', 'attempts', 'error', 'claim_token'])
      .select(sql<boolean>`next_attempt_at > now()`.as('backingOff'))
      .where('notification_service_id', 'in', [a.service.id, b.service.id])
      .execute();
    const rowOf = (serviceId: string) => rows.find((r) => r.notification_service_id === serviceId);
    expect(rowOf(a.service.id)).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      claim_token: null,
      backingOff: true,
    });
    expect(rowOf(a.service.id)!.error).toMatch(/could not be recorded/);
    expect(rowOf(b.service.id)).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      error: 'receiver answered 502: bad gateway',
      claim_token: null,
      backingOff: true,
    });
  });
});
