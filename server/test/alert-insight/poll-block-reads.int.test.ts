import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firstPollSince,
  latestPolls,
  timelineBuckets,
} from '../../src/modules/alert-insight/alert-insight.repo.ts';
import { createAlerts, createPlanner, createTemplate } from '../engine/engine-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * The alert page's reads skip the blocks that cannot hold what they look for (block_first_at and
 * block_last_at bounds); what they answer is what a read of every poll answers.
 */
let t: TestApp;
let alertId: string;

beforeAll(async () => {
  t = await startTestApp();
  const planner = await createPlanner(t.db, 'http://127.0.0.1:9/unused');
  const ids = await createAlerts(t.db, planner, await createTemplate(t.db, 'http://127.0.0.1:9/rooms'), [{}]);
  alertId = ids[0]!;
  // 30 blocks of 8 polls a minute apart (as the engine writes them), then 3 polls on the alert row.
  const record = (i: number) => sql`ROW(nextval('poll_record_ids'), NULL,
      now() - make_interval(mins => 250 - ${i}), now() - make_interval(mins => 250 - ${i}),
      now() - make_interval(mins => 250 - ${i}), 5, 40, 200, ${i % 7 !== 0}, ${i % 3 === 0}, false,
      NULL, NULL, ${i}, false, ${i % 7 === 0 ? 'upstream_error' : 'not_matched'},
      now() - make_interval(mins => 250 - ${i}))::poll_record`;
  for (let b = 0; b < 30; b++) {
    const polls = Array.from({ length: 8 }, (_, k) => record(b * 8 + k));
    await sql`INSERT INTO poll_blocks (alert_id, first_at, last_at, polls)
      VALUES (${alertId}, now() - make_interval(mins => 250 - ${b * 8}), now() - make_interval(mins => 250 - ${b * 8 + 7}),
              ARRAY[${sql.join(polls)}])`.execute(t.db);
  }
  await sql`UPDATE alerts SET recent_polls = ARRAY[${sql.join([240, 241, 242].map(record))}]
    WHERE id = ${alertId}`.execute(t.db);
});

afterAll(async () => {
  await t?.close();
});

/** Every poll of the alert, read without bounds. */
async function everyPoll() {
  const { rows } = await sql<{ id: string; created_at: Date; ok: boolean; watched_value: number }>`
    SELECT id, created_at, ok, watched_value FROM poll_runs WHERE alert_id = ${alertId}
    ORDER BY created_at DESC, id DESC`.execute(t.db);
  return rows;
}

describe('poll reads over blocks', () => {
  it('finds the newest polls in the newest blocks and on the alert row', async () => {
    const all = await everyPoll();
    expect(all).toHaveLength(243);
    for (const limit of [1, 3, 4, 11, 50, 300]) {
      const newest = await latestPolls(t.db, alertId, limit);
      expect(newest.map((p) => p.id)).toEqual(all.slice(0, limit).map((p) => p.id));
    }
  });

  it('finds the first poll since a time inside a block, and the timeline from it', async () => {
    const all = (await everyPoll()).reverse();
    for (const minutesAgo of [300, 249.5, 100.5, 96, 9.5, 1.5]) {
      const since = new Date(Date.now() - minutesAgo * 60_000);
      const expected = all.find((p) => p.created_at >= since)?.created_at ?? null;
      expect(await firstPollSince(t.db, alertId, since)).toEqual(expected);
      const buckets = await timelineBuckets(t.db, alertId, since, 600);
      const counted = buckets.reduce((n, b) => n + b.matched + b.not_matched + b.errors, 0);
      expect(counted).toBe(all.filter((p) => p.created_at >= since).length);
    }
  });
});
