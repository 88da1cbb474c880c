/**
 * The soak's figures (scripts/soak.ts): the healthy alerts' polls due against polls done and their
 * lateness (from `poll_runs`), every scripted opening accounted for at the prompt receiver, and the
 * main tables' sizes.
 */
import type pg from 'pg';
import type { Arrival } from './soak-receivers.ts';
import type { Opening } from './soak-upstreams.ts';

/** A repeat of a webhook id first received within this long of a SIGKILL was in flight at the kill. */
const IN_FLIGHT_MS = 30_000;

export interface PollFigures {
  due: number;
  done: number;
  p50: number | null;
  p99: number | null;
}

/** Polls of the healthy alerts due in [from, to) (their grids: phase + k × interval) against those recorded. */
export async function pollFigures(
  db: pg.Client,
  healthy: { ids: string[]; phases: number[]; intervalMs: number },
  from: number,
  to: number,
): Promise<PollFigures> {
  const i = healthy.intervalMs;
  const due = healthy.phases.reduce((n, p) => n + Math.ceil((to - p) / i) - Math.ceil((from - p) / i), 0);
  const { rows } = await db.query<Omit<PollFigures, 'due'>>(
    `SELECT count(DISTINCT (alert_id, due_at))::int AS done,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY lateness_ms) AS p50,
            percentile_disc(0.99) WITHIN GROUP (ORDER BY lateness_ms) AS p99
     FROM poll_runs
     WHERE alert_id = ANY($1::uuid[]) AND due_at >= to_timestamp($2 / 1000.0) AND due_at < to_timestamp($3 / 1000.0)
       AND block_last_at >= to_timestamp($2 / 1000.0)`,
    [healthy.ids, from, to],
  );
  return { due, ...rows[0]! };
}

export interface NotificationFigures {
  expected: number;
  received: number;
  lost: Opening[];
  /** Received more than one interval after the opening. */
  late: number;
  /** A webhook id received again: within IN_FLIGHT_MS of a SIGKILL, and otherwise. */
  repeatsInFlight: number;
  repeats: number;
  /** A second notification (another webhook id) for an opening already notified. */
  extra: number;
  /** A notification that belongs to no opening. */
  unexpected: number;
  /** Each notified opening's first arrival. */
  notified: Map<Opening, Arrival>;
}

/**
 * Accounts for every scripted opening: each must bring exactly one notification (one webhook id) of
 * its alert, seen by a poll while the room was open.
 */
export function notificationFigures(
  openings: Opening[],
  arrivals: Arrival[],
  refOf: Map<string, number>,
  kills: number[],
  intervalMs: number,
): NotificationFigures {
  const f: NotificationFigures = {
    expected: openings.length,
    received: 0,
    lost: [],
    late: 0,
    repeatsInFlight: 0,
    repeats: 0,
    extra: 0,
    unexpected: 0,
    notified: new Map(),
  };
  const first = new Map<string, Arrival>();
  for (const a of arrivals) {
    const earlier = first.get(a.webhookId);
    if (earlier) {
      const inFlight = kills.some(
        (k) => Math.abs(earlier.receivedAt - k) <= IN_FLIGHT_MS && a.receivedAt >= k,
      );
      if (inFlight) f.repeatsInFlight++;
      else f.repeats++;
      continue;
    }
    first.set(a.webhookId, a);
    const opening = openingOf(openings, refOf, a, intervalMs);
    if (!opening) f.unexpected++;
    else if (f.notified.has(opening)) f.extra++;
    else f.notified.set(opening, a);
  }
  for (const o of openings) {
    const a = f.notified.get(o);
    if (!a) f.lost.push(o);
    else {
      f.received++;
      if (a.receivedAt - o.openAt > intervalMs) f.late++;
    }
  }
  return f;
}

/** Openings that start in [from, to), and how many of them have been notified. */
export function openingsIn(
  f: Pick<NotificationFigures, 'notified'>,
  openings: Opening[],
  from: number,
  to: number,
) {
  const starting = openings.filter((o) => o.openAt >= from && o.openAt < to);
  return { expected: starting.length, received: starting.filter((o) => f.notified.has(o)).length };
}

/** The opening a notification reports: its alert's, open when the poll saw the change (or a poll's length after). */
function openingOf(
  openings: Opening[],
  refOf: Map<string, number>,
  a: Arrival,
  intervalMs: number,
): Opening | undefined {
  const ref = refOf.get(a.alertId);
  const seen = Number.isFinite(a.seenAt) ? a.seenAt : a.receivedAt;
  return openings.find((o) => o.ref === ref && o.openAt <= seen && seen < o.closeAt + intervalMs);
}

export const soakTables = [
  'alerts',
  'poll_blocks',
  'notifications',
  'notification_deliveries',
  'live_events',
  'pgboss.job',
] as const;

export type TableSizes = Map<string, { rows: number; bytes: number } | null>;

/** Rows and bytes (table, indexes, TOAST; every partition) of the main tables; null for a missing one. */
export async function tableSizes(db: pg.Client): Promise<TableSizes> {
  const sizes: TableSizes = new Map();
  for (const table of soakTables) {
    const exists = await db.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [table]);
    if (!exists.rows[0]!.ok) {
      sizes.set(table, null);
      continue;
    }
    const { rows } = await db.query<{ rows: number; bytes: number }>(
      `SELECT (SELECT count(*) FROM ${table})::float8 AS rows,
              coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree($1::regclass)),
                       pg_total_relation_size($1::regclass))::float8 AS bytes`,
      [table],
    );
    sizes.set(table, rows[0]!);
  }
  return sizes;
}
