import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { AlertPollingService } from '../alerts/alert-polling.service.ts';
import { cachedFor } from './cached.ts';

interface EngineFigures {
  /** Workers within the deadline their last beat announced. */
  workers: number;
  alerts: {
    polled: number;
    /** Alerts past their due time by more than a second that no worker has claimed. */
    dueBacklog: number;
    /** Alerts without a completed poll in three of their intervals. */
    stale: number;
  };
  lastMinute: {
    polls: number;
    pollsPerSecond: number;
    failures: number;
    notifications: number;
    latenessMs: { p50: number | null; p99: number | null };
  };
  /** False when alerts are stale or no worker runs while alerts wait: a stuck engine shows here. */
  healthy: boolean;
}

/**
 * The engine's figures for GET /api/health, for the whole pool of workers (read from the database,
 * so an API-only process reports them too). Cached briefly: the poll-run scan is not free at scale.
 */
export function createEngineFigures(deps: {
  db: Kysely<DB>;
  /** The alerts' side of the figures: workers, polled, due backlog, stale (the alerts module's rule). */
  alerts: Pick<AlertPollingService, 'poolFigures'>;
  cacheMs?: number;
}) {
  const cacheMs = deps.cacheMs ?? 5000;

  async function read(): Promise<EngineFigures> {
    const a = await deps.alerts.poolFigures();
    const runs = await sql<{
      polls: number;
      failures: number;
      notified: number;
      p50: number | null;
      p99: number | null;
    }>`
      SELECT count(*)::int AS polls,
             -- A deferred poll (the host asked us to wait) is not the alert's failure.
             (count(*) FILTER (WHERE NOT ok AND NOT deferred))::int AS failures,
             (count(*) FILTER (WHERE notified))::int AS notified,
             percentile_disc(0.5) WITHIN GROUP (ORDER BY lateness_ms) AS p50,
             percentile_disc(0.99) WITHIN GROUP (ORDER BY lateness_ms) AS p99
      FROM poll_runs WHERE created_at > now() - interval '1 minute'
        -- No poll is newer than its block's last one: older blocks are not read (poll_blocks_last_idx).
        AND block_last_at > now() - interval '1 minute'`.execute(deps.db);
    const r = runs.rows[0]!;
    return {
      workers: a.workers,
      alerts: { polled: a.polled, dueBacklog: a.due_backlog, stale: a.stale },
      lastMinute: {
        polls: r.polls,
        pollsPerSecond: Math.round((r.polls / 60) * 10) / 10,
        failures: r.failures,
        notifications: r.notified,
        latenessMs: { p50: r.p50, p99: r.p99 },
      },
      healthy: a.stale === 0 && (a.polled === 0 || a.workers > 0),
    };
  }

  return cachedFor(cacheMs, read);
}
