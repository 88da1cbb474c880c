import { hash as digestOf } from 'node:crypto';
import {
  type AlertHealth,
  type BuiltRequest,
  classifyAnswer,
  classifyFailure,
  earliestToday,
  type PollClass,
  pollErrorMessages,
  type RequestTemplate,
  type WatchConfig,
  watchedValue,
} from '@resort/shared';
import type { ClaimedAlert } from '../modules/alerts/alert-polling.service.ts';
import type { PollingTemplate } from '../modules/templates/templates.service.ts';
import type { Logger } from '../platform/logger.ts';
import { storableParsedJson, storableText } from '../platform/storable.ts';
import type { Coalescer } from './coalescer.ts';
import { HostBackoffError, HostBusyError, type HostLimiter, retryAfterMs } from './host-limiter.ts';
import { buildNotification, eventKey } from './message.ts';
import { decideOutcome, type Evaluation, type PollResult } from './outcome.ts';
import type { ProxyRotation, RotatingProxy } from './proxy-rotation.ts';
import type { PollRecord } from './result-writer.ts';
import { nextDueAfterPoll, phaseOf } from './schedule.ts';
import {
  matchedBeforeFor,
  pollWindow,
  stayMessage,
  staysToList,
  type WindowPoll,
  windowOf,
} from './stay-expansion.ts';

/** What an upstream answered (the outbound client's response, as much as the engine reads). */
interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  json: unknown;
  /** The decoded body `json` was parsed from; without it, the parsed value is walked (storableJson). */
  text?: string;
}

export interface PollerDeps {
  build: (template: RequestTemplate, alert: ClaimedAlert) => BuiltRequest;
  requestKey: (req: BuiltRequest) => string;
  send: (req: BuiltRequest, proxy: RotatingProxy | null) => Promise<UpstreamAnswer>;
  evaluate: (config: WatchConfig, data: unknown, previous: Record<string, unknown> | null) => Evaluation;
  proxyOutcome: {
    success(proxyId: string, url: string): Promise<void>;
    failure(proxyId: string, reason: string): Promise<{ deactivated: boolean }>;
  };
  rotation: ProxyRotation;
  limiter: HostLimiter;
  /** The engine's poll slots: taken only once the host's turn has come, held while the request runs. */
  slots: <T>(task: () => Promise<T>) => Promise<T>;
  coalescer: Coalescer<FetchResult>;
  /** The database's clock in milliseconds (due times are database times). */
  now: () => number;
  errorAfter: number;
  /** Answers in a row without a rule's path that make an alert drifted. */
  driftAfter: number;
  log: Logger;
}

export type FetchResult =
  | { ok: true; answer: UpstreamAnswer; proxyId: string | null; sentAt: number; durationMs: number }
  | {
      ok: false;
      deferred: boolean;
      error: string;
      /** The outbound failure's kind (timeout, network, proxy, too_large…), when it had one. */
      errorKind?: string | null;
      proxyId: string | null;
      sentAt: number;
      durationMs: number;
    };

/** The largest answer kept for the alert page (its JSON text); larger ones are noted by size only. */
const MAX_KEPT_ANSWER_BYTES = 256 * 1024;

/**
 * The answer as kept for the alert page, with its digest. An answer whose digest is the kept one's
 * carries no text: the kept answer stays as it is rather than being written again at every poll.
 */
function keptAnswer(json: unknown, keptHash: string | null): PollRecord['answer'] {
  const text = JSON.stringify(json) ?? 'null';
  const bytes = Buffer.byteLength(text);
  const hash = digestOf('sha256', text, 'base64');
  const kept = bytes <= MAX_KEPT_ANSWER_BYTES && hash !== keptHash;
  return { text: kept ? text : null, bytes, hash };
}

/** Outbound failures that say the proxy, not the upstream, is at fault. */
const proxyFaultKinds = new Set(['proxy', 'network', 'timeout']);

function describe(error: unknown): { message: string; kind: string | null } {
  const e = error as { message?: string; kind?: string };
  return { message: e?.message ?? String(error), kind: typeof e?.kind === 'string' ? e.kind : null };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * One poll of one alert: build the request, fetch it (shared with identical requests,
 * within the host's limits, through the next proxy), evaluate the rules against the answer and the
 * values kept from the previous poll, and decide status, next due time and notification.
 */
export function createPoller(deps: PollerDeps) {
  async function fetchOnce(host: string, req: BuiltRequest): Promise<FetchResult> {
    let sentAt = deps.now();
    let proxyId: string | null = null;
    try {
      // The host's turn first, then a poll slot: waiting for a slow host's turn holds no slot that
      // another host's polls could use.
      return await deps.limiter.run(host, () =>
        deps.slots(async () => {
          sentAt = deps.now();
          const proxy = await deps.rotation.next();
          proxyId = proxy?.id ?? null;
          try {
            const sent = await deps.send(req, proxy);
            // Legal JSON may hold what PostgreSQL cannot store (U+0000, lone surrogates): the answer is
            // made storable once, here, so its kept values, kept text and notification all are. Only
            // what the engine reads is kept: a shared answer is held for the coalescing window.
            const answer: UpstreamAnswer = {
              status: sent.status,
              headers: sent.headers,
              json: storableParsedJson(sent.text, sent.json),
            };
            const durationMs = deps.now() - sentAt;
            if (proxy) {
              if (answer.status === 407)
                await recordProxyFailure(proxy.id, 'Proxy authentication required (407)');
              else await recordProxySuccess(proxy.id, req.url);
            }
            const wait = retryAfterMs(answer.status, answer.headers['retry-after'], Date.now());
            if (wait !== null) deps.limiter.backOff(host, wait);
            return { ok: true, answer, proxyId, sentAt, durationMs };
          } catch (error) {
            const { message, kind } = describe(error);
            if (proxy && kind !== null && proxyFaultKinds.has(kind))
              await recordProxyFailure(proxy.id, message);
            return {
              ok: false,
              deferred: false,
              error: storableText(message),
              errorKind: kind,
              proxyId,
              sentAt,
              durationMs: deps.now() - sentAt,
            };
          }
        }),
      );
    } catch (error) {
      if (!(error instanceof HostBackoffError || error instanceof HostBusyError)) throw error;
      return { ok: false, deferred: true, error: error.message, proxyId, sentAt: deps.now(), durationMs: 0 };
    }
  }

  // Proxy bookkeeping is the pool's health record, not the poll's: should writing it fail, the
  // poll's answer (possibly a match) still counts, and the failure is logged.
  async function recordProxySuccess(proxyId: string, url: string) {
    try {
      await deps.proxyOutcome.success(proxyId, url);
    } catch (err) {
      deps.log.warn({ err, proxyId }, 'engine: recording a proxy success failed');
    }
  }

  async function recordProxyFailure(proxyId: string, reason: string) {
    try {
      const { deactivated } = await deps.proxyOutcome.failure(proxyId, reason);
      if (deactivated) {
        deps.rotation.invalidate(proxyId);
        deps.log.warn({ proxyId, reason }, 'engine: proxy disabled after repeated failures');
      }
    } catch (err) {
      deps.log.warn({ err, proxyId, reason }, 'engine: recording a proxy failure failed');
    }
  }

  function judge(
    fetched: FetchResult,
    watch: WatchConfig,
    previous: Record<string, unknown> | null,
  ): PollResult {
    if (!fetched.ok) {
      return fetched.deferred
        ? { kind: 'deferred', error: fetched.error }
        : {
            kind: 'failed',
            statusCode: null,
            error: fetched.error,
            pollClass: classifyFailure(fetched.errorKind ?? null),
          };
    }
    const { status, json, headers } = fetched.answer;
    const contentType = headers['content-type'];
    const refusal = classifyAnswer({ statusCode: status, contentType, isJson: json !== undefined });
    if (refusal !== null) {
      const htmlPage = json === undefined && /html/i.test(contentType ?? '');
      const error =
        status < 200 || status > 299
          ? pollErrorMessages.upstreamStatus(status, htmlPage)
          : htmlPage
            ? pollErrorMessages.htmlInsteadOfJson
            : pollErrorMessages.notJson;
      return { kind: 'failed', statusCode: status, error, pollClass: refusal };
    }
    try {
      return { kind: 'answered', statusCode: status, evaluation: deps.evaluate(watch, json, previous) };
    } catch (error) {
      return {
        kind: 'failed',
        statusCode: status,
        error: `Rules could not be evaluated: ${describe(error).message}`,
        pollClass: 'other_error',
      };
    }
  }

  return async function pollAlert(
    alert: ClaimedAlert,
    template: PollingTemplate,
    token: string | null,
  ): Promise<PollRecord> {
    const dueMs = alert.next_due_at.getTime();
    const intervalMs = alert.polling_interval_seconds * 1000;
    const joinedAt = deps.now();
    const watch = (alert.watch_config ?? {}) as WatchConfig;
    let fetched: FetchResult;
    let phaseKey = alert.id;
    let shared = false;
    // A window alert polls each of its stays (stay-expansion.ts); its phase is its template's, so
    // alerts watching overlapping windows send their identical stays together and share them.
    const window = windowOf(alert, template);
    let stays: WindowPoll<FetchResult> | null = null;
    if (window) {
      const share = (req: BuiltRequest) => {
        const handle = deps.coalescer.share(deps.requestKey(req), alert.id, () =>
          fetchOnce(hostOf(req.url), req),
        );
        return handle.promise.then((f) => ({ fetched: f, shared: handle.shared }));
      };
      const failure = (error: string): FetchResult => ({
        ok: false,
        deferred: false,
        error,
        proxyId: null,
        sentAt: joinedAt,
        durationMs: 0,
      });
      stays = await pollWindow(
        {
          deps: { build: deps.build, fetch: share, judge, failure, now: deps.now },
          alert,
          template,
          w: window,
          watch,
        },
        earliestToday(new Date(joinedAt)),
        joinedAt,
      );
      ({ fetched, shared } = stays);
      phaseKey = template.id;
    } else {
      try {
        const req = deps.build(template.request, alert);
        const key = deps.requestKey(req);
        phaseKey = key;
        const host = hostOf(req.url);
        const handle = deps.coalescer.share(key, alert.id, () => fetchOnce(host, req));
        shared = handle.shared;
        fetched = await handle.promise;
      } catch (error) {
        // The request could not be built (a template edited into an invalid shape).
        const message = `Request could not be built: ${describe(error).message}`;
        fetched = {
          ok: false,
          deferred: false,
          error: message,
          proxyId: null,
          sentAt: joinedAt,
          durationMs: 0,
        };
      }
    }
    const finishedMs = deps.now();
    // A window poll begins when it joins: its stays are sent later on purpose (spread over the interval).
    const startedMs = stays ? joinedAt : Math.max(joinedAt, fetched.sentAt);
    const result = stays ? stays.result : judge(fetched, watch, alert.last_values);
    const state = {
      status: alert.status,
      lastMatched:
        stays && watch.notifyOn === 'firstMatch'
          ? matchedBeforeFor(stays, alert.last_matched)
          : alert.last_matched,
      lastValues: alert.last_values,
      lastNotifiedAt: alert.last_notified_at,
      consecutiveErrors: alert.consecutive_errors,
      notifyOn: watch.notifyOn ?? 'everyMatch',
      notifyOnResolved: watch.notifyOnResolved ?? false,
      debounceSeconds: watch.debounceSeconds ?? 0,
      health: alert.health as AlertHealth,
      healthCause: alert.health_cause as PollClass | null,
      driftCount: alert.drift_count,
    };
    const at = new Date(finishedMs);
    const outcome = decideOutcome(state, result, at, deps.errorAfter, deps.driftAfter);
    const failed = { kind: 'failed' as const, statusCode: null, error: '' };
    const failedOutcome = decideOutcome(state, failed, at, deps.errorAfter, deps.driftAfter);

    const dueAt = alert.next_due_at;
    let notification: PollRecord['notification'] = null;
    if (outcome.notify && result.kind === 'answered') {
      let { message, metadata } = buildNotification(
        outcome.notify,
        {
          alertId: alert.id,
          templateId: alert.template_id,
          templateName: template.name,
          title: alert.title,
          partyName: alert.party_name,
        },
        result.evaluation,
        { dueAt, observedAt: new Date(finishedMs), statusCode: result.statusCode },
        fetched.ok ? fetched.answer.json : undefined,
      );
      if (stays && outcome.notify === 'MATCH') {
        const said = stayMessage(staysToList(stays, watch.notifyOn), alert, template);
        message = said.message;
        metadata.stays = said.stays;
      }
      notification = {
        userId: alert.user_id,
        alertId: alert.id,
        eventKey: eventKey(alert.id, dueAt, outcome.notify),
        kind: outcome.notify,
        message,
        metadata,
      };
    }

    const record: PollRecord = {
      id: alert.id,
      token,
      dueAt,
      startedAt: new Date(startedMs),
      finishedAt: new Date(finishedMs),
      latenessMs: Math.max(0, Math.round(startedMs - dueMs)),
      durationMs: Math.max(0, Math.round(finishedMs - startedMs)),
      statusCode: result.kind === 'deferred' ? null : result.statusCode,
      ok: result.kind === 'answered',
      matched: result.kind === 'answered' ? result.evaluation.matched : null,
      error: result.kind === 'answered' ? null : result.error,
      proxyId: fetched.proxyId,
      outcome,
      failedOutcome,
      matchedBefore: alert.last_matched,
      nextDueAt: new Date(nextDueAfterPoll(dueMs, intervalMs, phaseOf(phaseKey, intervalMs), finishedMs)),
      notification,
      watchedValue: result.kind === 'answered' ? watchedValue(result.evaluation.results) : null,
      answer:
        result.kind === 'answered' && fetched.ok ? keptAnswer(fetched.answer.json, alert.answer_hash) : null,
    };
    deps.log.debug(
      {
        alertId: alert.id,
        dueAt,
        latenessMs: record.latenessMs,
        durationMs: record.durationMs,
        statusCode: record.statusCode,
        ok: record.ok,
        matched: record.matched,
        status: outcome.status,
        pollClass: outcome.pollClass,
        health: outcome.health,
        notify: outcome.notify,
        debounced: outcome.debounced,
        proxyId: record.proxyId,
        shared,
        error: record.error,
      },
      'engine poll',
    );
    return record;
  };
}
