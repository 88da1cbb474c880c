import {
  type AlertHealth,
  type Condition,
  DRIFTED_AFTER_POLLS,
  type NotifyOn,
  nextHealth,
  type PollClass,
} from '@resort/shared';
import type { NotificationKind } from '../modules/notifications/new-notification.ts';

/** What the evaluator answered for one poll (shared/src/evaluator.ts). */
export interface Evaluation {
  matched: boolean;
  values: Record<string, unknown>;
  results: {
    condition: Condition;
    group?: 'all' | 'any';
    holds: boolean;
    values: unknown[];
    satisfied: number[];
    /** The rule's path, or one of its required paths, is absent from the answer (drift). */
    pathMissing?: boolean;
    missingRequired?: boolean;
  }[];
}

export type PollResult =
  | { kind: 'answered'; statusCode: number; evaluation: Evaluation }
  /** The poll failed: no answer, an error status, an answer that is not JSON, rules that threw. */
  | { kind: 'failed'; statusCode: number | null; error: string; pollClass?: PollClass }
  /** Not sent: the upstream asked us to wait (429/Retry-After). Not the alert's fault. */
  | { kind: 'deferred'; error: string };

export interface AlertState {
  status: string;
  lastMatched: boolean;
  lastValues: Record<string, unknown> | null;
  lastNotifiedAt: Date | null;
  consecutiveErrors: number;
  notifyOn: NotifyOn;
  notifyOnResolved: boolean;
  debounceSeconds: number;
  /** The alert's health before the poll (healthy when not given). */
  health?: AlertHealth;
  healthCause?: PollClass | null;
  driftCount?: number;
}

export interface Outcome {
  status: string;
  lastMatched: boolean;
  lastValues: Record<string, unknown> | null;
  consecutiveErrors: number;
  /** Whether the poll completed (answered or failed); a deferred poll did not. */
  completed: boolean;
  notify: NotificationKind | null;
  /** A notification was due but came within debounceSeconds of the previous one. */
  debounced: boolean;
  /** What this poll saw, and the alert's health after it (shared/src/poll-health.ts). */
  pollClass: PollClass;
  health: AlertHealth;
  healthCause: PollClass | null;
  driftCount: number;
  /** The rules could read the answer (matched or not): the alert's last successful check. */
  success: boolean;
}

/** The class of a poll: a failure's own, or the rules' verdict (drift when a rule's path is absent). */
export function classOf(result: PollResult): PollClass {
  if (result.kind === 'deferred') return 'deferred';
  if (result.kind === 'failed') return result.pollClass ?? 'other_error';
  const { matched, results } = result.evaluation;
  if (results.some((r) => r.pathMissing || r.missingRequired)) return 'drift';
  return matched ? 'matched' : 'not_matched';
}

/**
 * The engine's decision after one poll (docs/product.md, "Polling and rules"): FIRING when the rules match, ACTIVE when not,
 * ERROR after `errorAfter` failures in a row and back on the next answered poll. Its health
 * follows shared nextHealth: failing after `errorAfter` failures in a row, drifted after `driftAfter`
 * answers in a row without a rule's path. firstMatch notifies
 * on not matching → matching, everyMatch on every matching poll, notifyOnResolved on matching → not
 * matching, and no two notifications of one alert come closer than debounceSeconds.
 */
export function decideOutcome(
  state: AlertState,
  result: PollResult,
  now: Date,
  errorAfter: number,
  driftAfter = DRIFTED_AFTER_POLLS,
): Outcome {
  const pollClass = classOf(result);
  const health = nextHealth(
    {
      health: state.health ?? 'healthy',
      cause: state.healthCause ?? null,
      consecutiveErrors: state.consecutiveErrors,
      driftCount: state.driftCount ?? 0,
    },
    pollClass,
    errorAfter,
    driftAfter,
  );
  const healthFields = {
    pollClass,
    health: health.health,
    healthCause: health.cause,
    driftCount: health.driftCount,
    success: pollClass === 'matched' || pollClass === 'not_matched',
  };
  const unchanged = {
    ...healthFields,
    status: state.status,
    lastMatched: state.lastMatched,
    lastValues: state.lastValues,
    consecutiveErrors: state.consecutiveErrors,
    notify: null,
    debounced: false,
  };
  if (result.kind === 'deferred') return { ...unchanged, completed: false };
  if (result.kind === 'failed') {
    const consecutiveErrors = state.consecutiveErrors + 1;
    const status = consecutiveErrors >= errorAfter ? 'ERROR' : state.status;
    return { ...unchanged, status, consecutiveErrors, completed: true };
  }

  const { matched, values } = result.evaluation;
  let notify: NotificationKind | null = null;
  if (matched && (state.notifyOn === 'everyMatch' || !state.lastMatched)) notify = 'MATCH';
  if (!matched && state.lastMatched && state.notifyOnResolved) notify = 'RESOLVED';
  const debounced =
    notify !== null &&
    state.lastNotifiedAt !== null &&
    now.getTime() - state.lastNotifiedAt.getTime() < state.debounceSeconds * 1000;
  return {
    ...healthFields,
    status: matched ? 'FIRING' : 'ACTIVE',
    lastMatched: matched,
    lastValues: values,
    consecutiveErrors: 0,
    completed: true,
    notify: debounced ? null : notify,
    debounced,
  };
}
