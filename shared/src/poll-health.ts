/**
 * Poll classes and alert health (docs/product.md, "Alert health"): what each poll saw, in one word
 * and in words, and the alert's health derived from its polls, pure so the engine, the read model
 * and the client share it.
 */

/** The classes that are failures of the poll (no usable answer). */
export const failureClasses = [
  'refused',
  'upstream_error',
  'invalid_answer',
  'timeout',
  'network',
  'proxy',
  'other_error',
] as const;
export type FailureClass = (typeof failureClasses)[number];

/** Every poll is one of these. `drift`: answered fine, but a rule's path is absent from the answer. */
export const pollClasses = ['matched', 'not_matched', 'drift', ...failureClasses, 'deferred'] as const;
export type PollClass = (typeof pollClasses)[number];

/** A failed poll's error in words, where the engine writes it itself (stored on the poll run). */
export const pollErrorMessages = {
  upstreamStatus: (status: number, htmlPage: boolean) =>
    `Upstream answered ${status}${htmlPage ? ' with an HTML page' : ''}.`,
  htmlInsteadOfJson: 'Upstream answered an HTML page instead of JSON.',
  notJson: 'Upstream answer is not JSON.',
  windowEmpty: 'The window holds no stay from today on.',
} as const;

export function isFailureClass(c: string | null | undefined): c is FailureClass {
  return (failureClasses as readonly string[]).includes(c ?? '');
}

/** Each class in words, for the poll log, the timeline, the alert page and the messages. */
export const pollClassWords: Record<PollClass, string> = {
  matched: 'Matched',
  not_matched: 'No match',
  drift: "The answer changed shape: a rule's path is missing from it",
  refused: 'Refused by the site (blocked, login or rate limit)',
  upstream_error: 'The site answered with an error',
  invalid_answer: 'The answer was not usable JSON',
  timeout: 'The site did not answer in time',
  network: 'The site could not be reached',
  proxy: 'The proxy failed',
  deferred: 'Deferred: the site asked us to wait',
  other_error: 'The poll could not be made',
};

/** What the owner can do about a cause, said in the failing and drifted messages. */
export const causeAdvice: Record<PollClass, string> = {
  matched: '',
  not_matched: '',
  drift:
    "The site's answer no longer has the fields the rules read: check the rules or ask an admin to update the template.",
  refused:
    'The site is blocking automated checks: try a longer polling interval, or ask an admin to route the template through a proxy.',
  upstream_error: 'The site is having trouble; polling continues and you will hear when it works again.',
  invalid_answer:
    'The site answered something other than the expected data: ask an admin to check the template.',
  timeout: 'The site is slow or down; polling continues and you will hear when it works again.',
  network: 'The site cannot be reached; polling continues and you will hear when it works again.',
  proxy: 'The proxy in use is failing: ask an admin to check the proxy pool.',
  deferred: '',
  other_error: 'Ask an admin to check the template.',
};

/** Status codes that mean the site refused us (auth, bot protection, rate limit, legal). */
const refusedStatuses = new Set([401, 403, 407, 429, 451]);

/**
 * The class of an answer the site gave, or null when it is a usable JSON answer (the rules then
 * decide matched, not matched or drift). An HTML page where JSON was expected is a refusal (a
 * captcha or bot wall answers HTML).
 */
export function classifyAnswer(answer: {
  statusCode: number;
  contentType?: string;
  isJson?: boolean;
}): PollClass | null {
  if (refusedStatuses.has(answer.statusCode)) return 'refused';
  if (answer.statusCode < 200 || answer.statusCode > 299) return 'upstream_error';
  if (answer.isJson) return null;
  return /html/i.test(answer.contentType ?? '') ? 'refused' : 'invalid_answer';
}

/** The class of a poll that got no answer, by the outbound failure's kind. */
export function classifyFailure(kind: string | null): PollClass {
  if (kind === 'timeout' || kind === 'network' || kind === 'proxy') return kind;
  if (kind === 'too_large') return 'invalid_answer';
  return 'other_error';
}

export const alertHealths = ['healthy', 'degraded', 'failing', 'drifted'] as const;
export type AlertHealth = (typeof alertHealths)[number];

/** K: an alert is failing after this many failed polls in a row (ENGINE_ERROR_AFTER_FAILURES). */
export const FAILING_AFTER_FAILURES = 3;
/** N: an alert is drifted after this many answers in a row without a rule's path (ENGINE_DRIFT_AFTER_POLLS). */
export const DRIFTED_AFTER_POLLS = 3;

/** The alert's health as its row keeps it. */
export interface HealthState {
  health: AlertHealth;
  /** The class behind a degraded, failing or drifted health; null when healthy. */
  cause: PollClass | null;
  consecutiveErrors: number;
  driftCount: number;
}

/**
 * The health after one more poll of class `c`: a deferred poll changes nothing; a good answer makes
 * the alert healthy; a failure degrades it and, the `failAfter`th in a row, makes it failing (until a
 * good answer); an
 * answer without a rule's path degrades it and, the `driftAfter`th in a row, makes it drifted.
 */
export function nextHealth(s: HealthState, c: PollClass, failAfter: number, driftAfter: number): HealthState {
  if (c === 'deferred') return s;
  if (c === 'matched' || c === 'not_matched')
    return { health: 'healthy', cause: null, consecutiveErrors: 0, driftCount: 0 };
  if (c === 'drift') {
    const driftCount = s.driftCount + 1;
    return {
      health: driftCount >= driftAfter ? 'drifted' : 'degraded',
      cause: 'drift',
      consecutiveErrors: 0,
      driftCount,
    };
  }
  const consecutiveErrors = s.consecutiveErrors + 1;
  // A failing alert stays failing until a good answer (a restart resets the count, not the episode).
  const health =
    consecutiveErrors >= failAfter || s.health === 'failing'
      ? 'failing'
      : s.health === 'drifted'
        ? 'drifted'
        : 'degraded';
  return { health, cause: health === 'drifted' ? s.cause : c, consecutiveErrors, driftCount: s.driftCount };
}

/** Failing and drifted alerts first, then degraded, then healthy (the list's and dashboard's order). */
export function healthRank(health: string | null | undefined): number {
  return health === 'failing' ? 0 : health === 'drifted' ? 1 : health === 'degraded' ? 2 : 3;
}

/** An alert's health in words: "Failing: refused by the site (…)". */
export function healthWords(health: AlertHealth, cause: PollClass | null): string {
  const label = health.charAt(0).toUpperCase() + health.slice(1);
  if (health === 'healthy' || cause === null) return label;
  const words = pollClassWords[cause];
  return `${label}: ${words.charAt(0).toLowerCase()}${words.slice(1)}`;
}
