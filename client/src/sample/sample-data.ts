import type { Discount, Quarter, SampleStatus } from './sample-labels.ts';

/** Local sample data (SPEC.md §3): never sent to or read from the server. */
export interface SampleAlert {
  id: string;
  type: 'resort' | 'party';
  label: string;
  dates: { from: string; to: string; time: string };
  family: string;
  discount: Discount;
  status: SampleStatus;
  watchlistName: string;
  watchlistResort: string;
  quarter: Quarter;
  /** ISO timestamp. */
  updatedAt: string;
}

export interface Watchlist {
  id: string;
  name: string;
  resort: string;
  quarter: Quarter;
  notes: string;
}

export interface WatchlistStats {
  alerts: number;
  available: number;
}

export const AUTO_ARCHIVE_DAYS = 30;
const DAY = 86_400_000;

/** Booked or passed alerts not updated for more than 30 days move to Archived (SPEC.md §4). */
export function isArchivable(alert: SampleAlert, now: number): boolean {
  return (
    (alert.status === 'booked' || alert.status === 'passed') &&
    now - Date.parse(alert.updatedAt) > AUTO_ARCHIVE_DAYS * DAY
  );
}

export function autoArchive(alerts: readonly SampleAlert[], now: number) {
  const active: SampleAlert[] = [];
  const archived: SampleAlert[] = [];
  for (const alert of alerts) (isArchivable(alert, now) ? archived : active).push(alert);
  return { active, archived };
}

export function watchlistStats(watchlist: Watchlist, alerts: readonly SampleAlert[]): WatchlistStats {
  const mine = alerts.filter((a) => a.watchlistName === watchlist.name);
  return { alerts: mine.length, available: mine.filter((a) => a.status === 'avail').length };
}

/** The dashboard spotlight: top 3 by available count, then by alert count. */
export function spotlight(watchlists: readonly Watchlist[], alerts: readonly SampleAlert[], size = 3) {
  return watchlists
    .map((watchlist) => ({ watchlist, stats: watchlistStats(watchlist, alerts) }))
    .sort((a, b) => b.stats.available - a.stats.available || b.stats.alerts - a.stats.alerts)
    .slice(0, size);
}

const resorts = [
  ["Disney's Grand Floridian Resort", 'Grand Floridian getaway'],
  ["Disney's Polynesian Village Resort", 'Poly summer trip'],
  ["Disney's Art of Animation Resort", 'Art of Animation family week'],
  ["Disney's Port Orleans Riverside", 'Riverside spring break'],
  ["Disney's Pop Century Resort", 'Pop Century long weekend'],
  ["Disney's Beach Club Resort", 'Beach Club anniversary'],
] as const;
const parties = ["Mickey's Not-So-Scary Halloween Party", "Mickey's Very Merry Christmas Party"] as const;
const families = ['Garcia', 'Nguyen', 'Okafor', 'Schmidt', 'Patel', 'Johansson', 'Haddad', 'Kowalski'];
const statusCycle: SampleStatus[] = ['wait', 'avail', 'wait', 'booked', 'passed', 'wait', 'avail'];
const discountCycle: Discount[] = ['ap', 'disneyplus', 'flresident', 'military', 'standard'];

const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** A deterministic sample set around `now`, with enough old bookings to fill two Archived pages. */
export function createSampleData(now: number): { alerts: SampleAlert[]; watchlists: Watchlist[] } {
  const watchlists: Watchlist[] = resorts.slice(0, 4).map(([resort, name], i) => ({
    id: `wl-${i + 1}`,
    name,
    resort,
    quarter: (['Q1', 'Q2', 'Q3', 'Q4'] as const)[i % 4]!,
    notes: i === 0 ? 'Club level if the AP rate opens up.' : '',
  }));
  const alerts: SampleAlert[] = [];
  for (let i = 0; i < 84; i += 1) {
    const party = i % 6 === 5;
    const [resort, watchlistName] = resorts[i % resorts.length]!;
    const status = i >= 40 ? (i % 2 === 0 ? 'booked' : 'passed') : statusCycle[i % statusCycle.length]!;
    const from = now + ((i % 40) + 5) * DAY;
    const age = i >= 40 ? (31 + (i % 50)) * DAY : (i % 20) * DAY;
    alerts.push({
      id: `sample-${i + 1}`,
      type: party ? 'party' : 'resort',
      label: party ? parties[i % 2]! : resort,
      dates: { from: isoDate(from), to: isoDate(from + (party ? 0 : 4 * DAY)), time: party ? '19:00' : '' },
      family: `${families[i % families.length]} family`,
      discount: discountCycle[i % discountCycle.length]!,
      status,
      watchlistName,
      watchlistResort: resort,
      quarter: (['Q1', 'Q2', 'Q3', 'Q4'] as const)[Math.floor(i / 21) % 4]!,
      updatedAt: new Date(now - age).toISOString(),
    });
  }
  return { alerts, watchlists };
}
