import { adminUpdateAlertInput } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertRow,
  createAlerts,
  createTemplate,
  type EngineApp,
  notificationsOf,
  pollRuns,
  roomOpen,
  rooms,
  startEngineApp,
  type Upstream,
  waitFor,
} from './engine-fixtures.ts';

/**
 * An edit that changes the request the engine builds (dates, party, overrides, custom query, body or
 * headers, template) starts the alert over: its first match on the new request notifies, even when
 * the old request was matching (docs/product.md, "Polling and rules").
 */
let app: EngineApp;
let t: EngineApp['t'];
let upstream: Upstream;
let planner: EngineApp['planner'];

beforeAll(async () => {
  app = await startEngineApp({ start: true });
  ({ t, upstream, planner } = app);
});

afterAll(async () => {
  await app?.close();
});

describe('engine: edits start the alert over', { timeout: 120_000 }, () => {
  it('a FIRING firstMatch alert moved to new dates notifies on its first match there', async () => {
    upstream.set('/edited', { body: rooms(true) });
    const templateId = await createTemplate(t.db, `${upstream.url}/edited`);
    const preset = { id: 'open', label: 'Room open', condition: roomOpen.all![0] };
    await t.db
      .updateTable('templates')
      .set({ response_watch_presets: JSON.stringify({ all: [preset], any: [] }) })
      .where('id', '=', templateId)
      .execute();
    const [id] = await createAlerts(t.db, planner, templateId, [{ query: { arrival: '2031-07-01' } }]);
    await waitFor(async () => (await alertRow(t.db, id!)).status === 'FIRING', {
      what: 'the first match',
      timeoutMs: 60_000,
    });
    expect(await notificationsOf(t.db, id!)).toHaveLength(1);

    const editedAt = new Date();
    await t.services.alerts.update(
      { userId: planner.userId, admin: true },
      adminUpdateAlertInput.parse({
        id,
        templateId,
        customQuery: { arrival: '2031-08-01' },
        watchConfig: { any: [], notifyOnResolved: false, debounceSeconds: 0, ...roomOpen },
        notificationServiceIds: [planner.serviceId],
      }),
    );
    const row = await alertRow(t.db, id!);
    expect(row.last_matched).toBe(false);
    expect(row.status).toBe('ACTIVE');
    await waitFor(
      async () =>
        (await pollRuns(t.db, id!)).some((r) => r.matched && r.started_at.getTime() >= editedAt.getTime()),
      { what: 'a match on the new dates', timeoutMs: 60_000 },
    );
    await waitFor(async () => (await notificationsOf(t.db, id!)).length === 2, {
      what: 'the notification for the new dates',
      timeoutMs: 30_000,
    });
  });
});
