import {
  type BuiltRequest,
  bookingLink,
  describeStay,
  expandStayWindows,
  type Overrides,
  openStaysFromNights,
  partyRoleOf,
  pollErrorMessages,
  type RequestTemplate,
  STAY_STATES_KEY,
  type Stay,
  type StayStates,
  type StayWindow,
  stayKey,
  stayOverrides,
  stayWindowsSchema,
  type TemplateStay,
  type WatchConfig,
} from '@resort/shared';
import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { PollingTemplate } from '../modules/templates/templates.service.ts';
import { buildNotification, describeHeld } from './message.ts';
import type { Evaluation, PollResult } from './outcome.ts';

/**
 * Stay windows in the engine (docs/product.md, "Stay windows"): an alert's windows expand into their
 * candidate stays from today on; each stay is written into the alert's overrides and built by the
 * one request builder, fetched through the poller's shared fetch (so identical stays of different
 * alerts share one upstream request, within the host limits), and judged by the alert's rules.
 * Where the template reads availability per night, one request spans the window and the open stays
 * are read from its nights. The stays' states are kept beside the rules' values (STAY_STATES_KEY).
 */

/** Stays of one alert fetched at once; the host limiter paces them against every other poll. */
export const STAY_CONCURRENCY = 4;
/**
 * A window's stays are spread over the first half of the alert's interval, at most this long: each
 * stay at its own offset, the same for every alert (a hash of the stay), so alerts of one template,
 * which share its phase, still send an identical stay together and share it.
 */
export const STAY_SPREAD_MAX_MS = 30_000;

/** How long after a window poll's start its stays are spread (half its interval, capped). */
export function staySpreadMs(intervalSeconds: number): number {
  return Math.min((intervalSeconds * 1000) / 2, STAY_SPREAD_MAX_MS);
}

/** A stay's place in the spread: the same fraction of it for every alert (FNV-1a of the stay). */
export function stayOffsetMs(stay: Stay, spreadMs: number): number {
  let hash = 0x811c9dc5;
  for (const ch of stayKey(stay)) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return Math.floor((hash / 2 ** 32) * spreadMs);
}

/** Waits `ms`, or less when `signal` aborts (a stay opened: the rest are checked at once). */
function waitOrHurry(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

export interface WindowWatch {
  windows: StayWindow[];
  stay: TemplateStay;
}

/** The alert's windows and its template's stay, or null for a fixed-dates alert. */
export function windowOf(alert: ClaimedAlert, template: PollingTemplate): WindowWatch | null {
  if (!alert.stay_window || !template.stay) return null;
  const windows = stayWindowsSchema.safeParse(alert.stay_window);
  return windows.success ? { windows: windows.data, stay: template.stay } : null;
}

/** What the poller's fetch answers, as much as this module reads (poller.ts FetchResult). */
type Fetched = { ok: true; answer: { json: unknown } } | { ok: false };

export interface WindowPollDeps<F extends Fetched> {
  build: (template: RequestTemplate, alert: ClaimedAlert) => BuiltRequest;
  /** The poller's fetch, shared with identical requests and within the host limits. */
  fetch: (req: BuiltRequest) => Promise<{ fetched: F; shared: boolean }>;
  judge: (fetched: F, watch: WatchConfig, previous: Record<string, unknown> | null) => PollResult;
  /** A fetch that failed before it was sent (the request could not be built, no stay left). */
  failure: (error: string) => F;
  /** The clock the spread is timed by (ms); the database's in the engine. */
  now: () => number;
  /** Waits until a stay's turn in the spread, or less when hurried (tests pass their own). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** One window poll's givens. */
interface WindowContext<F extends Fetched> {
  deps: WindowPollDeps<F>;
  alert: ClaimedAlert;
  template: PollingTemplate;
  w: WindowWatch;
  watch: WatchConfig;
}

/** A stay found open, with what its rules answered and the answer they read. */
export interface OpenStay {
  stay: Stay;
  evaluation: Evaluation;
  data: unknown;
}

export interface WindowPoll<F extends Fetched = Fetched> {
  /** The fetch the poll record reports (timing, proxy, kept answer): the first open stay's, else the first. */
  fetched: F;
  shared: boolean;
  result: PollResult;
  open: OpenStay[];
  /** Open now and not open at the previous poll. */
  newlyOpen: OpenStay[];
}

interface Checked<F extends Fetched> {
  stay: Stay;
  fetched: F;
  shared: boolean;
  result: PollResult;
  /** Open by the per-night answer (null: open when the rules match). */
  openByNights?: boolean;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function buildFor<F extends Fetched>(c: WindowContext<F>, s: Stay) {
  const overrides = stayOverrides((c.alert.overrides ?? {}) as Overrides, c.w.stay, s);
  return c.deps.build(c.template.request, { ...c.alert, overrides });
}

/** Builds and fetches one stay's request, then judges the answer by the alert's rules. */
async function checkStay<F extends Fetched>(
  c: WindowContext<F>,
  stay: Stay,
): Promise<Omit<Checked<F>, 'stay'>> {
  let req: BuiltRequest;
  try {
    req = buildFor(c, stay);
  } catch (error) {
    const fetched = c.deps.failure(`Request could not be built: ${(error as Error).message}`);
    return { fetched, shared: false, result: c.deps.judge(fetched, c.watch, null) };
  }
  const { fetched, shared } = await c.deps.fetch(req);
  return { fetched, shared, result: c.deps.judge(fetched, c.watch, null) };
}

/**
 * Every stay by its own request, a few at a time, each at its offset in the spread from the poll's
 * start. A stay that newly opens hurries the rest: they are checked at once, so the poll (and its
 * notification) ends without waiting out the spread.
 */
async function checkEachStay<F extends Fetched>(
  c: WindowContext<F>,
  stays: Stay[],
  startMs: number,
  before: Map<string, StayStates['stays'][number]['state']>,
): Promise<Checked<F>[]> {
  const spreadMs = staySpreadMs(c.alert.polling_interval_seconds);
  const offsets = new Map(stays.map((s) => [stayKey(s), stayOffsetMs(s, spreadMs)]));
  const inTurn = [...stays].sort((a, b) => offsets.get(stayKey(a))! - offsets.get(stayKey(b))!);
  const hurry = new AbortController();
  const wait = c.deps.wait ?? waitOrHurry;
  const checked = await mapLimit(inTurn, STAY_CONCURRENCY, async (stay) => {
    await wait(startMs + offsets.get(stayKey(stay))! - c.deps.now(), hurry.signal);
    const check: Checked<F> = { stay, ...(await checkStay(c, stay)) };
    if (isOpen(check) && before.get(stayKey(stay)) !== 'open') hurry.abort();
    return check;
  });
  // Reported in the windows' order (check-in, then length), whatever order they were checked in.
  const byKey = new Map(checked.map((ch) => [stayKey(ch.stay), ch]));
  return stays.map((s) => byKey.get(stayKey(s))!);
}

/** One request spanning every stay; each stay is open when all its nights are available. */
async function checkByNights<F extends Fetched>(c: WindowContext<F>, stays: Stay[]): Promise<Checked<F>[]> {
  const first = stays[0]!;
  const checkOut = stays
    .map((s) => s.checkOut)
    .sort()
    .at(-1)!;
  const nights = Math.round((Date.parse(checkOut) - Date.parse(first.checkIn)) / 86_400_000);
  const checked = await checkStay(c, { checkIn: first.checkIn, checkOut, nights });
  const open =
    checked.result.kind === 'answered' && checked.fetched.ok
      ? new Set(openStaysFromNights(stays, checked.fetched.answer.json, c.w.stay.perNight!).map(stayKey))
      : new Set<string>();
  return stays.map((stay) => ({ stay, ...checked, openByNights: open.has(stayKey(stay)) }));
}

const isOpen = (c: Checked<Fetched>) =>
  c.result.kind === 'answered' && c.result.evaluation.matched && (c.openByNights ?? true);

/**
 * Polls every candidate stay of the alert's windows and sums them up as one poll: answered when any
 * stay was answered (matched when any is open), else the first stay's failure. A stay not answered
 * this time keeps its previous state.
 */
export async function pollWindow<F extends Fetched>(
  c: WindowContext<F>,
  today: string,
  now: number,
): Promise<WindowPoll<F>> {
  const { alert, w } = c;
  const stays = expandStayWindows(w.windows, today);
  if (stays.length === 0) {
    const error = pollErrorMessages.windowEmpty;
    const fetched = c.deps.failure(error);
    return {
      fetched,
      shared: false,
      result: { kind: 'failed', statusCode: null, error },
      open: [],
      newlyOpen: [],
    };
  }
  const previous = (alert.last_values?.[STAY_STATES_KEY] as StayStates | undefined)?.stays ?? [];
  const before = new Map(previous.map((s) => [stayKey(s), s.state]));
  const checked = await (w.stay.perNight ? checkByNights(c, stays) : checkEachStay(c, stays, now, before));

  const answered = checked.filter((c) => c.result.kind === 'answered');
  const openChecks = checked.filter(isOpen);
  const open = openChecks.map((c) => ({
    stay: c.stay,
    evaluation: (c.result as Extract<PollResult, { kind: 'answered' }>).evaluation,
    data: c.fetched.ok ? c.fetched.answer.json : undefined,
  }));
  const newlyOpen = open.filter((o) => before.get(stayKey(o.stay)) !== 'open');
  const lead = openChecks[0] ?? answered[0] ?? checked[0]!;
  if (answered.length === 0)
    return { fetched: lead.fetched, shared: lead.shared, result: lead.result, open, newlyOpen };

  const states: StayStates = {
    checkedAt: new Date(now).toISOString(),
    stays: checked.map((c) => ({
      ...c.stay,
      state:
        c.result.kind === 'answered'
          ? isOpen(c)
            ? 'open'
            : 'closed'
          : (before.get(stayKey(c.stay)) ?? 'unchecked'),
    })),
  };
  const leadEvaluation = (lead.result as Extract<PollResult, { kind: 'answered' }>).evaluation;
  const result: PollResult = {
    kind: 'answered',
    statusCode: (lead.result as Extract<PollResult, { kind: 'answered' }>).statusCode,
    evaluation: {
      ...leadEvaluation,
      matched: open.length > 0,
      values: { ...leadEvaluation.values, [STAY_STATES_KEY]: states },
    },
  };
  return { fetched: lead.fetched, shared: checked.some((c) => c.shared), result, open, newlyOpen };
}

/**
 * What firstMatch compares with: a window alert "matched before" unless a stay newly opened, so it
 * notifies once per newly opened stay, not again while a stay stays open. A match whose notification
 * was not handed over is written back as not matched (result-writer.ts): the next poll notifies again.
 */
export function matchedBeforeFor(poll: WindowPoll<Fetched>, lastMatched: boolean): boolean {
  const matched = poll.result.kind === 'answered' && poll.result.evaluation.matched;
  return matched ? lastMatched && poll.newlyOpen.length === 0 : lastMatched;
}

/** The stays a match notification lists: the newly opened ones (all open ones for everyMatch, or again). */
export function staysToList(poll: WindowPoll<Fetched>, notifyOn: WatchConfig['notifyOn']): OpenStay[] {
  return notifyOn === 'firstMatch' && poll.newlyOpen.length > 0 ? poll.newlyOpen : poll.open;
}

/** The alert's party values by role (adults, children) for the booking link's placeholders. */
function partyOf(
  alert: ClaimedAlert,
  template: PollingTemplate,
): Record<string, string | number | boolean | null> {
  const party: Record<string, string | number | boolean | null> = {};
  const overrides = (alert.overrides ?? {}) as Overrides;
  for (const field of template.request.editableFields ?? []) {
    const bucket = overrides[field.target.toLowerCase() as keyof Overrides];
    const value = bucket && Object.hasOwn(bucket, field.path) ? bucket[field.path] : field.defaultValue;
    if (value === undefined || Array.isArray(value)) continue;
    const name =
      field.path
        .split(/[.[\]]/)
        .filter(Boolean)
        .pop() ?? field.path;
    party[name] = value;
    const role = partyRoleOf(field);
    if (role && role !== 'childAges') party[role] = value;
  }
  return party;
}

const MAX_MESSAGE = 1000;

/**
 * A window alert's match message and its `stays` data: the stays listed in words with what matched
 * ("Thu Jun 12 → Mon Jun 16, 4 nights: Lagoon View: 2 rooms available at $689"), each with its
 * booking link where the template defines one, after the ordinary message's head.
 */
export function stayMessage(
  listed: OpenStay[],
  alert: ClaimedAlert,
  template: PollingTemplate,
): { message: string; stays: { checkIn: string; checkOut: string; nights: number; bookingUrl?: string }[] } {
  // The ordinary message with nothing listed is its head and a full stop.
  const subject = {
    alertId: alert.id,
    templateId: alert.template_id,
    templateName: template.name,
    title: alert.title,
    partyName: alert.party_name,
  };
  const nothing = { matched: true, values: {}, results: [] };
  const when = { dueAt: alert.next_due_at, observedAt: alert.next_due_at, statusCode: 200 };
  const head = buildNotification('MATCH', subject, nothing, when).message.slice(0, -1);
  const url = template.stay?.bookingUrl;
  const party = url ? partyOf(alert, template) : {};
  const stays = listed.map((o) => ({
    ...o.stay,
    ...(url ? { bookingUrl: bookingLink(url, o.stay, party) } : {}),
  }));
  const parts = listed.map((o, i) => {
    const held = o.evaluation.results.filter((r) => r.holds).map((r) => describeHeld(r, o.data));
    const link = stays[i]!.bookingUrl ? ` (book: ${stays[i]!.bookingUrl})` : '';
    return `${describeStay(o.stay)}${held.length ? `: ${held.join('; ')}` : ''}${link}`;
  });
  let message = `${head}: ${parts.join(' · ')}.`;
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE - 3)}...`;
  return { message, stays };
}
