import { createHash } from 'node:crypto';
import { causeAdvice, isPolledStatus, type PollClass, pollClassWords } from '@resort/shared';
import type { HealthNoticeKind, NewNotification } from '../notifications/new-notification.ts';
import type { TemplateHealthRow, UntoldHealth } from './alert-health.repo.ts';

/** The state an owner is told of for a health: degraded tells nothing, so its told state stays. */
export function toldStateOf(row: Pick<UntoldHealth, 'health' | 'health_told'>): string {
  return row.health === 'degraded' ? row.health_told : row.health;
}

function kindOf(row: UntoldHealth): HealthNoticeKind {
  const told = toldStateOf(row);
  return told === 'failing' ? 'FAILING' : told === 'drifted' ? 'DRIFTED' : 'RECOVERED';
}

const time = (d: Date | null) => (d ? `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'never');
const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const nameOf = (r: UntoldHealth) => r.title ?? r.party_name ?? r.template_name;

function causeWords(cause: string | null): string {
  return lower(pollClassWords[(cause ?? 'other_error') as PollClass] ?? pollClassWords.other_error);
}

/** "Harbour Hotel rooms (28), Lakeside Lodge rooms (2)". */
function templatesOf(rows: UntoldHealth[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.template_name, (counts.get(r.template_name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (rows.length === 1 ? name : `${name} (${n})`)).join(', ');
}

function messageOf(kind: HealthNoticeKind, rows: UntoldHealth[], cause: string | null): string {
  const first = rows[0]!;
  const one = rows.length === 1;
  const since = time(new Date(Math.min(...rows.map((r) => r.health_since.getTime()))));
  const successes = rows.flatMap((r) => (r.last_success_at ? [r.last_success_at.getTime()] : []));
  const lastGood = time(successes.length > 0 ? new Date(Math.max(...successes)) : null);
  const who = one
    ? `Alert "${nameOf(first)}" (${first.template_name})`
    : `${rows.length} of your alerts (${templatesOf(rows)})`;
  const advice = causeAdvice[(cause ?? 'other_error') as PollClass] ?? '';
  if (kind === 'RECOVERED') {
    return `${who} ${one ? 'works' : 'work'} again: the site's answers can be read, and rooms are reported as before.`;
  }
  const what =
    kind === 'DRIFTED'
      ? `may be missing rooms since ${since}: ${causeWords(cause)}, so "no match" cannot be trusted.`
      : `cannot see availability since ${since}: ${causeWords(cause)}. Until ${one ? 'it works' : 'they work'} again, no room is reported.`;
  return `${who} ${what} Last successful check: ${lastGood}. ${advice}`.trim();
}

/**
 * The notices for a set of untold health changes: one per owner, kind and cause (a template blocked
 * fails many alerts for one cause at once, told in one grouped message), each with a key derived
 * from its alerts and their health times, so a retried round creates nothing twice. Owners who
 * turned health notices off are told nothing.
 */
export function buildHealthNotices(rows: UntoldHealth[], now: Date): NewNotification[] {
  const groups = new Map<string, UntoldHealth[]>();
  for (const row of rows) {
    // Owners who turned notices off, and alerts no longer polled (booked, passed…), are told nothing.
    if (!row.health_notices || !isPolledStatus(row.status)) continue;
    const kind = kindOf(row);
    const cause = kind === 'RECOVERED' ? '' : (row.health_cause ?? 'other_error');
    const key = `${row.user_id}|${kind}|${cause}`;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  const notices: NewNotification[] = [];
  for (const [key, list] of groups) {
    const [userId, kind, rawCause] = key.split('|') as [string, HealthNoticeKind, string];
    const cause = rawCause === '' ? null : rawCause;
    const digest = createHash('sha256')
      .update(list.map((r) => `${r.id}@${r.health_since.toISOString()}`).join(','))
      .digest('base64url')
      .slice(0, 22);
    const first = list[0]!;
    notices.push({
      userId,
      alertId: first.id,
      eventKey: `health:${kind}:${digest}`,
      kind,
      message: messageOf(kind, list, cause),
      metadata: {
        timestamp: now.toISOString(),
        kind,
        registrationId: first.id,
        templateId: first.template_id,
        templateName: first.template_name,
        title: first.title,
        partyName: first.party_name,
        cause,
        causeWords: cause ? pollClassWords[cause as PollClass] : null,
        since: first.health_since.toISOString(),
        lastSuccessAt: first.last_success_at?.toISOString() ?? null,
        count: list.length,
        alertIds: list.map((r) => r.id),
      },
    });
  }
  return notices;
}

/**
 * The admins' notice that most alerts of a template fail: the template, not the planners, is
 * broken. One per admin, to every active channel of theirs; its key holds the episode's start.
 */
export function buildTemplateNotices(
  rows: TemplateHealthRow[],
  adminIds: string[],
  now: Date,
): NewNotification[] {
  return rows.flatMap((r) => {
    const cause = r.cause ?? 'other_error';
    const since = r.since ?? now;
    const message =
      `Template "${r.template_name}" looks broken: ${r.failing} of its ${r.polled} alerts cannot see availability ` +
      `since ${time(since)} (${causeWords(cause)}). ${causeAdvice[cause as PollClass] ?? ''}`.trim();
    return adminIds.map((userId) => ({
      userId,
      alertId: null,
      eventKey: `template-failing:${r.template_id}:${since.toISOString()}:${userId}`,
      kind: 'TEMPLATE_FAILING' as const,
      message,
      metadata: {
        timestamp: now.toISOString(),
        kind: 'TEMPLATE_FAILING',
        templateId: r.template_id,
        templateName: r.template_name,
        polled: r.polled,
        failing: r.failing,
        cause,
        causeWords: pollClassWords[cause as PollClass] ?? null,
        since: since.toISOString(),
        allChannels: true,
      },
    }));
  });
}
