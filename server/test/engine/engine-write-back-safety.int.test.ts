import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy, type TestProxy } from '../helpers/proxies.ts';
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
 * What an upstream or the database does to one poll stays with that poll: an unstorable answer, a
 * refused notification hand-off, an answer without the required paths and failing proxy
 * bookkeeping never cost a match, a notification or another alert's poll (docs/product.md,
 * "Polling and rules"). Faults come from real parts: a loopback upstream's answers and PostgreSQL
 * triggers that refuse one alert's rows.
 */
let app: EngineApp;
let t: EngineApp['t'];
let upstream: Upstream;
let proxy: TestProxy;
let planner: EngineApp['planner'];

beforeAll(async () => {
  proxy = await startConnectProxy();
  app = await startEngineApp({ start: true });
  ({ t, upstream, planner } = app);
});

afterAll(async () => {
  await app?.close();
  await proxy?.close();
});

let refusals = 0;

/**
 * A trigger that makes PostgreSQL refuse the rows of `table` matching `when` (a row's data fault:
 * SQLSTATE 22023) until dropped.
 */
async function refuseRows(event: 'INSERT' | 'UPDATE', table: string, when: string, what = table) {
  const name = `refuse_${table}_${++refusals}`;
  await sql
    .raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION '${what} refused' USING ERRCODE = '22023'; END $$;
          CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW
          WHEN (${when}) EXECUTE FUNCTION ${name}();`)
    .execute(t.db);
  return { drop: () => sql.raw(`DROP TRIGGER ${name} ON ${table}`).execute(t.db) };
}

const runsAtLeast = (id: string, n: number) =>
  waitFor(async () => (await pollRuns(t.db, id)).length >= n, { what: `${n} polls`, timeoutMs: 60_000 });

describe('engine write-back safety', { timeout: 120_000 }, () => {
  it('an answer holding U+0000 is stored as U+FFFD and costs no other alert of its batch its poll', async () => {
    upstream.set('/nul-batch', { body: rooms(true) });
    upstream.set('/nul-one', { body: '{"rooms":[{"code":"R\\u0000","available":true,"price":300}]}' });
    const plain = await createTemplate(t.db, `${upstream.url}/nul-batch`);
    const nul = await createTemplate(t.db, `${upstream.url}/nul-one`);
    const ids = await createAlerts(
      t.db,
      planner,
      plain,
      Array.from({ length: 20 }, (_, i) => ({ query: { n: i } })),
    );
    const [nulId] = await createAlerts(t.db, planner, nul, [{}]);
    for (const id of [...ids, nulId!]) await runsAtLeast(id, 2);
    const row = await alertRow(t.db, nulId!);
    expect(row.status).toBe('FIRING');
    expect(row.last_matched).toBe(true);
    expect(row.claim_token).toBeNull();
    expect((await notificationsOf(t.db, nulId!)).length).toBe(1);
    const kept = await t.db
      .selectFrom('alert_answers')
      .select('answer')
      .where('alert_id', '=', nulId!)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(kept.answer)).toContain('R\uFFFD');
  });

  it('keeps answers and values holding quotes, backslashes, control and non-ASCII characters exactly', async () => {
    const awkward = {
      rooms: [{ code: 'Q"\\é☃\u2028\t', available: true, price: 300 }],
      note: 'a "quoted" \\ back\nslash 🏰',
    };
    upstream.set('/awkward', { body: awkward });
    upstream.set('/null-answer', { body: 'null' });
    const [awkwardId] = await createAlerts(
      t.db,
      planner,
      await createTemplate(t.db, `${upstream.url}/awkward`),
      [{ watch: { ...roomOpen, all: [{ path: 'rooms[*].code', operator: 'changed', label: 'Code' }] } }],
    );
    const [nullId] = await createAlerts(
      t.db,
      planner,
      await createTemplate(t.db, `${upstream.url}/null-answer`),
      [{}],
    );
    await runsAtLeast(awkwardId!, 2);
    await runsAtLeast(nullId!, 2);
    const kept = await sql<{ alert_id: string; answer: unknown; missing: boolean; values: unknown }>`
      SELECT a.alert_id, a.answer, a.answer IS NULL AS missing, r.last_values AS values
      FROM alert_answers a JOIN alerts r ON r.id = a.alert_id
      WHERE a.alert_id IN (${awkwardId!}, ${nullId!})`.execute(t.db);
    const byId = new Map(kept.rows.map((r) => [r.alert_id, r]));
    expect(byId.get(awkwardId!)?.answer).toEqual(awkward);
    expect(JSON.stringify(byId.get(awkwardId!)?.values)).toContain(JSON.stringify(awkward.rooms[0]!.code));
    // An upstream answering JSON null is kept as that answer, not as no answer at all.
    expect(byId.get(nullId!)).toMatchObject({ answer: null, missing: false });
  });

  it('a batch the database refuses for one row records that row as its alert error and the rest as usual', async () => {
    upstream.set('/refused-row', { body: rooms(true) });
    const templateId = await createTemplate(t.db, `${upstream.url}/refused-row`);
    const ids = await createAlerts(
      t.db,
      planner,
      templateId,
      Array.from({ length: 11 }, (_, i) => ({ query: { n: i } })),
    );
    const bad = ids[5]!;
    // Refused while it carries an answer's outcome; its failed-poll record (an error) is accepted.
    // A poll's record goes onto its alert row, or with the records held there into a block (poll_runs).
    const refused = [
      await refuseRows(
        'UPDATE',
        'alerts',
        `NEW.id = '${bad}' AND NEW.recent_polls IS DISTINCT FROM OLD.recent_polls
         AND (NEW.recent_polls[cardinality(NEW.recent_polls)]).error IS NULL`,
        'poll_runs',
      ),
      await refuseRows(
        'INSERT',
        'poll_blocks',
        `NEW.alert_id = '${bad}' AND (NEW.polls[cardinality(NEW.polls)]).error IS NULL`,
        'poll_runs',
      ),
    ];
    for (const id of ids) await runsAtLeast(id, 2);
    for (const refusal of refused) await refusal.drop();
    for (const id of ids.filter((i) => i !== bad)) {
      expect((await pollRuns(t.db, id)).every((r) => r.ok && r.matched)).toBe(true);
      expect((await notificationsOf(t.db, id)).length).toBe(1);
    }
    const runs = await pollRuns(t.db, bad);
    expect(runs.every((r) => !r.ok && r.error?.startsWith("The poll's outcome could not be stored"))).toBe(
      true,
    );
    const row = await alertRow(t.db, bad);
    expect(row.claim_token === null || row.last_error !== null).toBe(true);
    expect(row.last_error).toContain('poll_runs refused');
    // The notification handed over before the write stands, and its match with it: no second one.
    expect(row.last_matched).toBe(true);
    expect((await notificationsOf(t.db, bad)).length).toBe(1);
  });

  it('a refused notification hand-off leaves the match unrecorded, so a later poll notifies', async () => {
    upstream.set('/refused', { body: rooms(true) });
    const [id] = await createAlerts(t.db, planner, await createTemplate(t.db, `${upstream.url}/refused`), [
      {},
    ]);
    const refusal = await refuseRows('INSERT', 'notifications', `NEW.alert_id = '${id}'`);
    await runsAtLeast(id!, 2);
    expect((await pollRuns(t.db, id!)).every((r) => r.matched && !r.notified)).toBe(true);
    expect((await alertRow(t.db, id!)).last_matched).toBe(false);
    await refusal.drop();
    await waitFor(async () => (await notificationsOf(t.db, id!)).length === 1, {
      what: 'the notification once hand-off works',
      timeoutMs: 60_000,
    });
  });

  it('an answer without the required paths keeps the changed baseline', async () => {
    upstream.set('/busy', { body: rooms(true, 300) });
    const [id] = await createAlerts(t.db, planner, await createTemplate(t.db, `${upstream.url}/busy`), [
      {
        watch: {
          all: [{ path: 'rooms[0].price', operator: 'changed', requiredPaths: ['rooms'] }],
          notifyOn: 'everyMatch',
        },
      },
    ]);
    await runsAtLeast(id!, 1);
    upstream.set('/busy', { body: { error: 'busy' } });
    const busyFrom = (await pollRuns(t.db, id!)).length;
    await runsAtLeast(id!, busyFrom + 2);
    upstream.set('/busy', { body: rooms(true, 300) });
    const backFrom = (await pollRuns(t.db, id!)).length;
    await runsAtLeast(id!, backFrom + 2);
    expect((await pollRuns(t.db, id!)).map((r) => r.matched)).not.toContain(true);
    expect(await notificationsOf(t.db, id!)).toHaveLength(0);
  });

  it('failing proxy bookkeeping is logged and the answer still counts', async () => {
    const [p] = await t.db
      .insertInto('proxies')
      .values({ host: '127.0.0.1', port: proxy.port, protocol: 'http' })
      .returning('id')
      .execute();
    const refusal = await refuseRows('UPDATE', 'proxies', `OLD.id = '${p!.id}'`);
    upstream.set('/booked-proxy', { body: rooms(true) });
    const [id] = await createAlerts(
      t.db,
      planner,
      await createTemplate(t.db, `${upstream.url}/booked-proxy`),
      [{}],
    );
    const proxied = () => pollRuns(t.db, id!).then((runs) => runs.filter((r) => r.proxy_id === p!.id));
    await waitFor(async () => (await proxied()).length >= 2, {
      what: 'polls through the proxy',
      timeoutMs: 60_000,
    });
    expect((await proxied()).every((r) => r.ok && r.matched)).toBe(true);
    expect((await notificationsOf(t.db, id!)).length).toBe(1);
    await refusal.drop();
    await t.db.deleteFrom('proxies').where('id', '=', p!.id).execute();
  });
});
