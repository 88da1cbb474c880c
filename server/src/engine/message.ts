import type { Evaluation, NotificationKind } from './outcome.ts';

export interface MessageSubject {
  registrationId: string;
  templateId: string;
  templateName: string;
  title: string | null;
  partyName: string | null;
}

const MAX_VALUES = 5;
const MAX_MESSAGE = 1000;

const operatorText: Record<string, string> = {
  exists: 'exists',
  equals: '=',
  not_equals: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  contains: 'contains',
  includes: 'includes',
  regex: 'matches',
  changed: 'changed',
  not_changed: 'unchanged',
};

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? 'nothing' : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeCondition(r: Evaluation['results'][number]): string {
  const c = r.condition;
  const name = c.label ? `${c.label} (${c.path})` : c.path;
  const expected = c.value === undefined || c.operator === 'exists' ? '' : ` ${show(c.value)}`;
  const found = r.values.length === 0 ? 'nothing' : r.values.slice(0, MAX_VALUES).map(show).join(', ');
  const more = r.values.length > MAX_VALUES ? ` and ${r.values.length - MAX_VALUES} more` : '';
  return `${name} ${operatorText[c.operator] ?? c.operator}${expected}: found ${found}${more}`;
}

/**
 * The notification of one match event: names the alert, its template and party, and what matched
 * (paths and values). `timestamp` is the moment the poll saw the change, so a receiver can measure
 * match → delivery.
 */
export function buildNotification(
  kind: NotificationKind,
  subject: MessageSubject,
  evaluation: Evaluation,
  context: { dueAt: Date; observedAt: Date; statusCode: number },
): { message: string; metadata: Record<string, unknown> } {
  const name = subject.title ?? subject.partyName ?? subject.templateName;
  const where = `${subject.templateName}${subject.partyName ? `, party ${subject.partyName}` : ''}`;
  // A match lists the conditions that hold; a resolution lists those that no longer do.
  const listed = evaluation.results.filter((r) => r.holds === (kind === 'MATCH'));
  const details = listed.map(describeCondition).join('; ');
  const head =
    kind === 'MATCH' ? `Alert "${name}" matched (${where})` : `Alert "${name}" no longer matches (${where})`;
  let message = details ? `${head}: ${details}.` : `${head}.`;
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE - 3)}...`;
  return {
    message,
    metadata: {
      timestamp: context.observedAt.toISOString(),
      kind,
      registrationId: subject.registrationId,
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
        values: r.values.slice(0, MAX_VALUES),
      })),
    },
  };
}

/** One event, one key: a retried poll of the same due time cannot notify twice. */
export function eventKey(registrationId: string, dueAt: Date, kind: NotificationKind): string {
  return `${registrationId}:${dueAt.toISOString()}:${kind}`;
}
