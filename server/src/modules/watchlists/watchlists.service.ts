import {
  type Alert,
  alertStatusLabel,
  autoArchiveStatuses,
  type DashboardSummary,
  watchlistMessages as m,
  type Quarter,
  SPOTLIGHT_SIZE,
  TRIGGERED_WINDOW_HOURS,
  type Watchlist,
  type WatchlistCreateInput,
  type WatchlistUpdateInput,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import { AppError } from '../../platform/errors.ts';
import type { AlertCounts, AlertService } from '../alerts/alerts.service.ts';
import * as repo from './watchlists.repo.ts';

function toWatchlist(row: repo.WatchlistView): Watchlist {
  return {
    id: row.id,
    name: row.name,
    resortCode: row.resort_code,
    quarter: row.quarter as Quarter | null,
    notes: row.notes,
    registrationIds: row.alert_ids,
    stats: {
      alertCount: row.alert_count,
      availableCount: row.available_count,
      lastNotifiedAt: row.last_notified_at ? row.last_notified_at.toISOString() : null,
    },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Top `size` by available count, then alert count, then name (the Dashboard spotlight). */
function pickSpotlight(watchlists: readonly Watchlist[], size = SPOTLIGHT_SIZE) {
  return [...watchlists]
    .sort(
      (a, b) =>
        b.stats.availableCount - a.stats.availableCount ||
        b.stats.alertCount - a.stats.alertCount ||
        a.name.localeCompare(b.name),
    )
    .slice(0, size)
    .map(({ id, name, resortCode, stats }) => ({ id, name, resortCode, stats }));
}

/** One bar per displayed status (ACTIVE and FIRING both read 'Enabled'), largest first. */
export function breakdown(counts: readonly { status: string; count: number }[]) {
  const byLabel = new Map<string, number>();
  let total = 0;
  for (const { status, count } of counts) {
    const label = alertStatusLabel(status);
    byLabel.set(label, (byLabel.get(label) ?? 0) + count);
    total += count;
  }
  return [...byLabel.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([label, count]) => ({ label, count, percent: Math.round((count / total) * 100) }));
}

/**
 * Watchlists of one user: CRUD, membership of the user's own alerts, stats from those alerts, and
 * the Home/Dashboard summary. Another user's watchlist or alert is answered as missing (404).
 */
export function createWatchlistService(deps: {
  db: Database;
  clock: Clock;
  /** The user's alerts as the alert list shows them (archived ones excluded). */
  listAlerts: (userId: string) => Promise<Alert[]>;
  /** The alerts service's reads of the user's alert rows: ownership and counts per status. */
  alerts: Pick<AlertService, 'ownedIds' | 'countByStatus'>;
}) {
  const { db, clock } = deps;

  async function load(userId: string, id: string): Promise<Watchlist> {
    const [row] = await repo.listWatchlists(db, userId, id);
    if (!row) throw new AppError('NOT_FOUND', m.notFound);
    return toWatchlist(row);
  }

  async function requireWatchlist(userId: string, id: string) {
    if (!(await repo.watchlistExists(db, userId, id))) throw new AppError('NOT_FOUND', m.notFound);
  }

  /** A blank resort means any resort; otherwise it must be one of the templates' codes. */
  async function resolveResort(code: string | null | undefined): Promise<string | null | undefined> {
    if (code === undefined || code === null) return code;
    const known = await repo.findResortCode(db, code);
    if (!known) {
      throw new AppError('BAD_REQUEST', m.resortUnknown, {
        issues: [{ path: 'resortCode', message: m.resortUnknown }],
      });
    }
    return known;
  }

  return {
    list: async (userId: string) => (await repo.listWatchlists(db, userId)).map(toWatchlist),

    get: (userId: string, id: string) => load(userId, id),

    async create(userId: string, input: WatchlistCreateInput): Promise<Watchlist> {
      const { id } = await repo.insertWatchlist(db, {
        user_id: userId,
        name: input.name,
        resort_code: (await resolveResort(input.resortCode)) ?? null,
        quarter: input.quarter ?? null,
        notes: input.notes ?? null,
      });
      return load(userId, id);
    },

    async update(userId: string, input: WatchlistUpdateInput): Promise<Watchlist> {
      await requireWatchlist(userId, input.id);
      const updated = await repo.updateWatchlist(db, userId, input.id, {
        name: input.name,
        resort_code: await resolveResort(input.resortCode),
        quarter: input.quarter,
        notes: input.notes,
      });
      if (!updated) throw new AppError('NOT_FOUND', m.notFound);
      return load(userId, input.id);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await repo.deleteWatchlist(db, userId, id))) throw new AppError('NOT_FOUND', m.notFound);
    },

    /** The alert list filtered to this watchlist (archived members are in the Archived view). */
    async alerts(userId: string, id: string): Promise<Alert[]> {
      const watchlist = await load(userId, id);
      const members = new Set(watchlist.registrationIds);
      return (await deps.listAlerts(userId)).filter((a) => members.has(a.id));
    },

    /** Adds the caller's alerts; one that is missing or not theirs answers 404 and adds nothing. */
    async addAlerts(userId: string, id: string, alertIds: string[]): Promise<Watchlist> {
      await requireWatchlist(userId, id);
      const owned = await deps.alerts.ownedIds(userId, alertIds);
      if (alertIds.some((r) => !owned.has(r))) throw new AppError('NOT_FOUND', m.alertNotFound);
      await repo.addMembers(db, id, [...owned]);
      return load(userId, id);
    },

    async removeAlert(userId: string, id: string, alertId: string): Promise<Watchlist> {
      await requireWatchlist(userId, id);
      if (!(await repo.removeMember(db, id, alertId))) {
        throw new AppError('NOT_FOUND', m.alertNotFound);
      }
      return load(userId, id);
    },

    /** The five stat cards, the status breakdown and the spotlight, from the user's own rows. */
    async summary(userId: string): Promise<DashboardSummary> {
      const since = new Date(clock.now().getTime() - TRIGGERED_WINDOW_HOURS * 3_600_000);
      const [counts, watchlists] = await Promise.all([
        deps.alerts.countByStatus(userId, since),
        repo.listWatchlists(db, userId),
      ]);
      const live = counts.filter((c) => c.status !== 'ARCHIVED');
      const sum = (pick: (c: AlertCounts) => number) => live.reduce((n, c) => n + pick(c), 0);
      const of = (statuses: readonly string[]) => sum((c) => (statuses.includes(c.status) ? c.count : 0));
      return {
        activeAlerts: of(['ACTIVE', 'FIRING']),
        availableAlerts: of(['FIRING']),
        triggeredLast24h: sum((c) => c.triggered),
        watchlists: watchlists.length,
        archived: counts.find((c) => c.status === 'ARCHIVED')?.count ?? 0,
        readyForAutoArchive: of(autoArchiveStatuses),
        statusBreakdown: breakdown(live),
        spotlight: pickSpotlight(watchlists.map(toWatchlist)),
      };
    },
  };
}
