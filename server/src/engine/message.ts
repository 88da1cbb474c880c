import { describeSatisfied, joinPhrases, operatorWords } from '@resort/shared';
import type { NotificationKind } from '../modules/notifications/new-notification.ts';
import type { Evaluation } from './outcome.ts';

interface MessageSubject {
  alertId: string;
  templateId: string;
  templateName: string;
  title: string | null;
  partyName: string | null;
}

const MAX_VALUES = 5;
const MAX_MESSAGE = 1000;

type Result = Evaluation['results'][number];

/** A held rule in words, naming only the values that satisfied it. */
export function describeHeld(r: Result, data: unknown): string {
  const words = joinPhrases(describeSatisfied({ group: r.group ?? 'all', ...r }, data, MAX_VALUES));
  return words || `${r.condition.label ?? r.condition.path} ${operatorWords[r.condition.operator]}`;
}

function describeLapsed(r: Result): string {
  return `${r.condition.label ?? r.condition.path} no longer holds`;
}

/**
 * The notification of one match event: names the alert, its template and party, and what matched in
 * words, naming only the values that satisfied a rule ("Lagoon View: 2 rooms available at $689";
 * `data` is the answer they were read from). `timestamp` is the moment the poll saw the change, so a receiver can measure
 * match → delivery.
 */
export function buildNotification(
  kind: NotificationKind,
  subject: MessageSubject,
  evaluation: Evaluation,
  context: { dueAt: Date; observedAt: Date; statusCode: number },
  data?: unknown,
): { message: string; metadata: Record<string, unknown> } {
  const name = subject.title ?? subject.partyName ?? subject.templateName;
  const where = `${subject.templateName}${subject.partyName ? `, party ${subject.partyName}` : ''}`;
  // A match lists the conditions that hold; a resolution lists those that no longer do.
  const listed = evaluation.results.filter((r) => r.holds === (kind === 'MATCH'));
  const details = listed
    .map((r) => (kind === 'MATCH' ? describeHeld(r, data) : describeLapsed(r)))
    .join('; ');
  const head =
    kind === 'MATCH' ? `Alert "${name}" matched (${where})` : `Alert "${name}" no longer matches (${where})`;
  let message = details ? `${head}: ${details}.` : `${head}.`;
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE - 3)}...`;
  return {
    message,
    metadata: {
      timestamp: context.observedAt.toISOString(),
      kind,
      registrationId: subject.alertId,
      templateId: subject.templateId,
      templateName: subject.templateName,
      title: subject.title,
      partyName: subject.partyName,
      dueAt: context.dueAt.toISOString(),
      statusCode: context.statusCode,
      conditions: listed.map((r) => ({
        path: r.condition.path,
        label: r.condition.label ?? null,
        operator: r.condition.operator,
        expected: r.condition.value ?? null,
        values: (kind === 'MATCH' ? r.satisfied.map((i) => r.values[i]) : r.values).slice(0, MAX_VALUES),
      })),
    },
  };
}

/** One event, one key: a retried poll of the same due time cannot notify twice. */
export function eventKey(alertId: string, dueAt: Date, kind: NotificationKind): string {
  return `${alertId}:${dueAt.toISOString()}:${kind}`;
}
