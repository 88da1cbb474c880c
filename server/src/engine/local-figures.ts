import type { PollRecord } from './result-writer.ts';

interface Second {
  at: number;
  polls: number;
  failures: number;
  deferred: number;
  notifications: number;
  lateness: number[];
}

const WINDOW_SECONDS = 60;

export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i]!;
}

/** This worker's own figures over the last minute, kept in one-second buckets. */
export function createLocalFigures(now: () => number = Date.now) {
  const seconds: Second[] = [];
  const totals = { polls: 0, failures: 0, deferred: 0, notifications: 0, rescheduled: 0 };
  // Where the time goes, for docs/performance.md: statements and their duration per poll.
  const sql = { claims: 0, claimed: 0, claimMs: 0, flushes: 0, flushed: 0, flushMs: 0, flushMaxMs: 0 };

  function bucket(): Second {
    const at = Math.floor(now() / 1000);
    let last = seconds[seconds.length - 1];
    if (!last || last.at !== at) {
      last = { at, polls: 0, failures: 0, deferred: 0, notifications: 0, lateness: [] };
      seconds.push(last);
      while (seconds.length > 0 && seconds[0]!.at <= at - WINDOW_SECONDS) seconds.shift();
    }
    return last;
  }

  return {
    recordPoll(r: PollRecord) {
      const b = bucket();
      const deferred = !r.outcome.completed;
      b.polls++;
      b.lateness.push(r.latenessMs);
      if (deferred) b.deferred++;
      else if (!r.ok) b.failures++;
      if (r.notification) b.notifications++;
      totals.polls++;
      if (deferred) totals.deferred++;
      else if (!r.ok) totals.failures++;
      if (r.notification) totals.notifications++;
    },
    recordClaim(rows: number, ms: number) {
      sql.claims++;
      sql.claimed += rows;
      sql.claimMs += ms;
    },
    recordFlush(flush: { records: number; notifications: number; ms: number }) {
      sql.flushes++;
      sql.flushed += flush.records;
      sql.flushMs += flush.ms;
      sql.flushMaxMs = Math.max(sql.flushMaxMs, flush.ms);
    },
    /** Polls written back since start. */
    polls: () => totals.polls,
    recordRescheduled(n: number) {
      totals.rescheduled += n;
    },
    snapshot() {
      bucket();
      const lateness = seconds.flatMap((s) => s.lateness).sort((a, b) => a - b);
      const polls = seconds.reduce((n, s) => n + s.polls, 0);
      return {
        lastMinute: {
          polls,
          pollsPerSecond: Math.round((polls / WINDOW_SECONDS) * 10) / 10,
          failures: seconds.reduce((n, s) => n + s.failures, 0),
          deferred: seconds.reduce((n, s) => n + s.deferred, 0),
          notifications: seconds.reduce((n, s) => n + s.notifications, 0),
          latenessMs: { p50: percentile(lateness, 0.5), p99: percentile(lateness, 0.99) },
        },
        totals: { ...totals },
        sql: {
          claims: sql.claims,
          rowsPerClaim: sql.claims ? Math.round(sql.claimed / sql.claims) : 0,
          msPerClaim: sql.claims ? Math.round((sql.claimMs / sql.claims) * 10) / 10 : 0,
          flushes: sql.flushes,
          rowsPerFlush: sql.flushes ? Math.round(sql.flushed / sql.flushes) : 0,
          msPerFlush: sql.flushes ? Math.round((sql.flushMs / sql.flushes) * 10) / 10 : 0,
          maxMsPerFlush: Math.round(sql.flushMaxMs),
        },
      };
    },
  };
}

export type LocalFigures = ReturnType<typeof createLocalFigures>;
