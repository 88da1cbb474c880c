import {
  type AlertInsight,
  type CheckNowResult,
  checkNowIntervalSeconds,
  explainEvaluation,
  type PollClass,
  type PollOutcome,
  pollClassWords,
} from '@resort/shared';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Actor, AlertService } from '../alerts/alerts.service.ts';
import * as repo from './alert-insight.repo.ts';

const POLL_LOG_SIZE = 50;
/** Polls recorded before classes were: their outcome in words. */
const outcomeWords: Record<PollOutcome, string> = {
  matched: pollClassWords.matched,
  not_matched: pollClassWords.not_matched,
  error: 'Failed',
};
const NOTIFICATION_LIST_SIZE = 20;
/** The timeline has at most about this many bars, whatever the window: ~10 px each on a desk, readable on a phone, and half the drawing of 240. */
const TIMELINE_BARS = 120;
const niceBuckets = [5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400];

/** The smallest tidy bucket that is no finer than the alert's interval and keeps the bar count. */
export function bucketSecondsFor(spanSeconds: number, intervalSeconds: number): number {
  const wanted = Math.max(intervalSeconds, Math.ceil(spanSeconds / TIMELINE_BARS));
  return niceBuckets.find((b) => b >= wanted) ?? Math.ceil(wanted / 86_400) * 86_400;
}

function outcomeOf(ok: boolean, matched: boolean | null): PollOutcome {
  if (!ok) return 'error';
  return matched ? 'matched' : 'not_matched';
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The alert page (/alerts/{id}): what the alert saw, when and why. Ownership is the alerts
 * service's (owner, or an admin through the admin procedures).
 */
export function createAlertInsightService(deps: {
  db: Database;
  clock: Clock;
  alerts: Pick<AlertService, 'getRow' | 'requestCheck'>;
  /** How long poll runs are kept (the timeline's window). */
  retentionHours: number;
}) {
  const { db, clock } = deps;

  async function timeline(id: string, intervalSeconds: number): Promise<AlertInsight['timeline']> {
    const now = clock.now();
    const windowStart = new Date(now.getTime() - deps.retentionHours * 3_600_000);
    const first = await repo.firstPollSince(db, id, windowStart);
    const from = first ?? now;
    const bucketSeconds = bucketSecondsFor((now.getTime() - from.getTime()) / 1000, intervalSeconds);
    const rows = first ? await repo.timelineBuckets(db, id, first, bucketSeconds) : [];
    return {
      from: from.toISOString(),
      to: now.toISOString(),
      bucketSeconds,
      polls: rows.reduce((n, r) => n + r.matched + r.not_matched + r.errors, 0),
      buckets: rows.map((r) => ({
        at: r.at.toISOString(),
        matched: r.matched,
        notMatched: r.not_matched,
        errors: r.errors,
        causes: (r.causes ?? []).map((c) => pollClassWords[c as PollClass] ?? c),
        minValue: r.min_value,
        maxValue: r.max_value,
      })),
    };
  }

  return {
    async get(actor: Actor, id: string): Promise<AlertInsight> {
      const alert = await deps.alerts.getRow(actor, id);
      const [line, polls, answer, notifications] = await Promise.all([
        timeline(alert.id, alert.pollingIntervalSeconds),
        repo.latestPolls(db, alert.id, POLL_LOG_SIZE),
        repo.findLastAnswer(db, alert.id),
        repo.latestNotifications(db, alert.id, NOTIFICATION_LIST_SIZE),
      ]);
      // The latest answer judged again by the shared evaluator, with the values kept before it: the
      // same inputs the engine had, so every figure is the evaluator's own.
      const explanation =
        answer && answer.answer !== null
          ? explainEvaluation(alert.watchConfig, answer.answer, answer.previous_values)
          : null;
      return {
        alert,
        timeline: line,
        polls: polls.map((p) => ({
          id: String(p.id),
          startedAt: p.started_at.toISOString(),
          dueAt: p.due_at.toISOString(),
          outcome: outcomeOf(p.ok, p.matched),
          pollClass: p.poll_class as PollClass | null,
          classWords: p.poll_class
            ? pollClassWords[p.poll_class as PollClass]
            : outcomeWords[outcomeOf(p.ok, p.matched)],
          durationMs: p.duration_ms,
          latenessMs: p.lateness_ms,
          statusCode: p.status_code,
          via: p.proxy_id ? (p.proxy_host ? `${p.proxy_host}:${p.proxy_port}` : 'a removed proxy') : null,
          notified: p.notified,
          error: p.error,
          watchedValue: p.watched_value,
        })),
        lastAnswer: answer
          ? {
              receivedAt: answer.received_at.toISOString(),
              statusCode: answer.status_code,
              bytes: answer.answer_bytes,
              json: (answer.answer ?? null) as NonNullable<AlertInsight['lastAnswer']>['json'],
            }
          : null,
        explanation: explanation as AlertInsight['explanation'],
        notifications: notifications.map((n) => ({
          id: n.id,
          kind: n.kind,
          message: n.message,
          createdAt: n.created_at.toISOString(),
          deliveries: n.deliveries.map((d) => ({
            id: d.id,
            status: d.status,
            serviceType: d.type,
            serviceLabel: d.label,
            attempts: d.attempts,
            error: d.error,
            dispatchedAt: iso(d.dispatched_at),
          })),
        })),
        checkAvailableAt: checkAvailableAt(alert.activity.checkRequestedAt),
      };
    },

    checkNow: (actor: Actor, id: string): Promise<CheckNowResult> => deps.alerts.requestCheck(actor, id),
  };

  function checkAvailableAt(requestedAt: string | null): string | null {
    if (!requestedAt) return null;
    const at = Date.parse(requestedAt) + checkNowIntervalSeconds * 1000;
    return at > clock.now().getTime() ? new Date(at).toISOString() : null;
  }
}
