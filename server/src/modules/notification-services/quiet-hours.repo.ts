import { DEFAULT_QUIET_HOURS, type QuietHours } from '@resort/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';

/** HH:MM of a `time` column read as text (HH:MM:SS). */
const hhmm = (value: string) => value.slice(0, 5);

/** The user's quiet hours, or the defaults (off) when never saved. */
export async function findQuietHours(db: Database, userId: string): Promise<QuietHours> {
  const { rows } = await sql<{
    enabled: boolean;
    start_time: string;
    end_time: string;
    time_zone: string;
    service_ids: string[] | null;
  }>`SELECT enabled, start_time::text, end_time::text, time_zone, service_ids
     FROM quiet_hours WHERE user_id = ${userId}`.execute(db);
  const row = rows[0];
  if (!row) return DEFAULT_QUIET_HOURS;
  return {
    enabled: row.enabled,
    start: hhmm(row.start_time),
    end: hhmm(row.end_time),
    timeZone: row.time_zone,
    serviceIds: row.service_ids,
  };
}

export async function saveQuietHours(db: Database, userId: string, q: QuietHours): Promise<void> {
  await sql`
    INSERT INTO quiet_hours (user_id, enabled, start_time, end_time, time_zone, service_ids, updated_at)
    VALUES (${userId}, ${q.enabled}, ${q.start}::time, ${q.end}::time, ${q.timeZone},
            ${q.serviceIds}::uuid[], now())
    ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled, start_time = excluded.start_time,
      end_time = excluded.end_time, time_zone = excluded.time_zone, service_ids = excluded.service_ids,
      updated_at = now()`.execute(db);
}
