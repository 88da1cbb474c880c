/** Seeding of the stay-windows benchmark (`npm run bench -- windows`, scripts/bench-engine.ts). */
import { earliestToday, expandStayWindows, type StayWindow } from '@resort/shared';
import type pg from 'pg';
import { benchWatch, seedPlanner } from './bench-engine-setup.ts';

export interface WindowsOptions {
  alerts: number;
  interval: number;
  windowDays: number;
  minNights: number;
  maxNights: number;
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Alert i watches a `windowDays` window starting (i mod 7) days after a common first day 60 days
 * ahead, for minNights–maxNights nights, with 1 + (i mod 2) adults: overlapping windows, so many
 * stays are the same request for several alerts (what coalescing shares).
 */
export function benchWindow(i: number, o: WindowsOptions, now = Date.now()): StayWindow {
  const first = Date.parse(`${earliestToday(new Date(now))}T00:00:00Z`) + (60 + (i % 7)) * DAY_MS;
  return {
    start: isoDay(first),
    end: isoDay(first + o.windowDays * DAY_MS),
    minNights: o.minNights,
    maxNights: o.maxNights,
  };
}

/** Upstream requests per interval without coalescing: every alert's every stay. */
export function staysPerInterval(o: WindowsOptions): number {
  const today = earliestToday();
  let n = 0;
  for (let i = 1; i <= o.alerts; i++) n += expandStayWindows([benchWindow(i, o)], today).length;
  return n;
}

/** Distinct requests per interval: the stays of all alerts, one per (stay, party). */
export function distinctStaysPerInterval(o: WindowsOptions): number {
  const today = earliestToday();
  const keys = new Set<string>();
  for (let i = 1; i <= o.alerts; i++) {
    for (const s of expandStayWindows([benchWindow(i, o)], today))
      keys.add(`${s.checkIn}/${s.nights}/${i % 2}`);
  }
  return keys.size;
}

/** The planner, webhook, a template declaring its stay, and the window alerts, set-based. */
export async function seedWindows(db: pg.Client, o: WindowsOptions, simulatorUrl: string, hookUrl: string) {
  const { userId, hookId } = await seedPlanner(db, hookUrl);
  const field = (path: string, label: string, fieldType: string) => ({
    target: 'QUERY',
    path,
    label,
    fieldType,
  });
  const template = await db.query<{ id: string }>(
    `INSERT INTO templates (name, resort_code, target_url, method, default_headers, default_query, editable_fields, stay)
     VALUES ('Bench resort stays', 'BR', $1, 'GET', '{}', '{"resort":"POLY"}', $2, $3) RETURNING id`,
    [
      `${simulatorUrl}/availability`,
      JSON.stringify([
        field('checkIn', 'Check-in', 'DATE'),
        field('checkOut', 'Check-out', 'DATE'),
        field('adults', 'Adults', 'NUMBER'),
      ]),
      JSON.stringify({
        checkIn: { target: 'QUERY', path: 'checkIn' },
        checkOut: { target: 'QUERY', path: 'checkOut' },
      }),
    ],
  );
  const windows = Array.from({ length: o.alerts }, (_, k) => JSON.stringify([benchWindow(k + 1, o)]));
  await db.query(
    `INSERT INTO alerts (user_id, template_id, title, party_name, custom_headers, custom_query,
                         overrides, stay_window, watch_config, polling_interval_seconds)
     SELECT $1, $2, 'Bench window ' || i, 'Party ' || (i % 97), '{}', '{}',
       jsonb_build_object('query', jsonb_build_object('adults', 1 + i % 2)), ($3::text[])[i]::jsonb, $4::jsonb, $5
     FROM generate_series(1, $6::int) AS i`,
    [userId, template.rows[0]!.id, windows, JSON.stringify(benchWatch), o.interval, o.alerts],
  );
  await db.query(
    `INSERT INTO alert_notification_services (alert_id, notification_service_id) SELECT id, $1 FROM alerts`,
    [hookId],
  );
  await db.query('ANALYZE alerts');
}
