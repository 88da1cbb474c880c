import { isPlainObject, pathHasWildcard, pathPresent, selectPath } from './json-path.ts';
import { testSafeRegex } from './safe-regex.ts';
import type { Condition, WatchConfig } from './watch.schema.ts';

export { selectPath } from './json-path.ts';

/**
 * The rule evaluator (docs/product.md, "Polling and rules"), pure so the engine, the alert test and the client preview
 * share it. Semantics, decided once (docs/decisions.md):
 * - A condition's path selects zero or more values; a value operator holds when at least one
 *   selected value satisfies it (so `rooms[*].status not_equals "SOLD_OUT"` means "some room is not
 *   sold out"). With nothing selected only `changed`/`not_changed` can hold.
 * - `exists` holds when some selected value is not null; requiredPaths use the same test.
 * - Numbers and numeric strings compare numerically; booleans equal "true"/"false".
 * - `changed`/`not_changed` compare with the value kept from the previous poll under the
 *   condition's path; with nothing kept yet neither holds (the first poll sets the baseline). An
 *   answer lacking a condition's required paths keeps its baseline as it was.
 * - The alert matches when it has at least one condition, every `all` condition holds and, if `any`
 *   is non-empty, at least one `any` condition holds. A watch with no conditions never matches.
 */

export interface ConditionResult {
  condition: Condition;
  group: 'all' | 'any';
  holds: boolean;
  /** Every value the path selected. */
  values: unknown[];
  /**
   * The selected values that satisfied the operator, by position in `values` (empty when the
   * condition does not hold): for changed/not_changed every value, the list being what changed.
   */
  satisfied: number[];
  /** Required paths were missing, so the condition could not hold. */
  missingRequired?: boolean;
  /**
   * The condition's path is absent from the answer (not merely an empty list): the answer may have
   * changed shape (drift). Never set for `exists`, whose question is the path's presence.
   */
  pathMissing?: boolean;
}

export interface WatchEvaluation {
  matched: boolean;
  /** Values to keep for `changed`/`not_changed` on the next poll, keyed by condition path. */
  values: Record<string, unknown>;
  results: ConditionResult[];
}

type Rules = Pick<WatchConfig, 'all' | 'any'> | { all?: Condition[]; any?: Condition[] };

export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** Loose equality of JSON values: numeric strings equal their number, "true" equals true. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => valuesEqual(v, b[i]))
    );
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && valuesEqual(a[k], b[k]))
    );
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    return String(a).trim().toLowerCase() === String(b).trim().toLowerCase() && a !== null && b !== null;
  }
  const na = toNumber(a);
  const nb = toNumber(b);
  return na !== null && nb !== null && na === nb;
}

function compareNumbers(actual: unknown, expected: unknown, test: (a: number, b: number) => boolean) {
  const a = toNumber(actual);
  const b = toNumber(expected);
  return a !== null && b !== null && test(a, b);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function arrayIncludes(list: unknown[], expected: unknown): boolean {
  const wanted = Array.isArray(expected) ? expected : [expected];
  return wanted.length > 0 && wanted.every((w) => list.some((item) => valuesEqual(item, w)));
}

function holdsFor(operator: Condition['operator'], actual: unknown, expected: unknown): boolean {
  switch (operator) {
    case 'exists':
      return actual !== null;
    case 'equals':
      return expected !== undefined && valuesEqual(actual, expected);
    case 'not_equals':
      return expected !== undefined && !valuesEqual(actual, expected);
    case 'gt':
      return compareNumbers(actual, expected, (a, b) => a > b);
    case 'gte':
      return compareNumbers(actual, expected, (a, b) => a >= b);
    case 'lt':
      return compareNumbers(actual, expected, (a, b) => a < b);
    case 'lte':
      return compareNumbers(actual, expected, (a, b) => a <= b);
    case 'contains':
      if (typeof actual === 'string') return isScalar(expected) && actual.includes(String(expected));
      return Array.isArray(actual) && expected !== undefined && arrayIncludes(actual, expected);
    case 'includes':
      return Array.isArray(actual) && expected !== undefined && arrayIncludes(actual, expected);
    case 'regex':
      return typeof expected === 'string' && isScalar(actual) && testSafeRegex(expected, String(actual));
    default:
      return false;
  }
}

/** What `changed` compares: the single value (null when missing), or the list a wildcard selects. */
function snapshotOf(path: string, values: unknown[]): unknown {
  return pathHasWildcard(path) ? values : (values[0] ?? null);
}

function isIgnored(condition: Condition, from: unknown, to: unknown): boolean {
  return (condition.ignoreChanges ?? []).some(
    (rule) =>
      (rule.from === undefined || valuesEqual(rule.from, from)) &&
      (rule.to === undefined || valuesEqual(rule.to, to)),
  );
}

function hasCountableChange(condition: Condition, before: unknown, after: unknown): boolean {
  if (valuesEqual(before, after)) return false;
  // A wildcard list of the same length changes item by item, so ignoreChanges applies per item.
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.some((b, i) => !valuesEqual(b, after[i]) && !isIgnored(condition, b, after[i]));
  }
  return !isIgnored(condition, before, after);
}

function requiredPathsPresent(condition: Condition, data: unknown): boolean {
  return (condition.requiredPaths ?? []).every((p) => selectPath(data, p).some((v) => v !== null));
}

function evaluateCondition(
  condition: Condition,
  data: unknown,
  previous: Record<string, unknown> | null | undefined,
): Omit<ConditionResult, 'condition' | 'group'> {
  const values = selectPath(data, condition.path);
  if (!requiredPathsPresent(condition, data)) {
    return { holds: false, values, satisfied: [], missingRequired: true };
  }
  if (values.length === 0 && condition.operator !== 'exists' && !pathPresent(data, condition.path)) {
    const outcome = evaluatePresent(condition, values, previous);
    return { ...outcome, pathMissing: true };
  }
  return evaluatePresent(condition, values, previous);
}

function evaluatePresent(
  condition: Condition,
  values: unknown[],
  previous: Record<string, unknown> | null | undefined,
): Omit<ConditionResult, 'condition' | 'group'> {
  const { operator, value: expected } = condition;
  const every = () => values.map((_, i) => i);
  if (operator === 'changed' || operator === 'not_changed') {
    if (!previous || !Object.hasOwn(previous, condition.path)) return { holds: false, values, satisfied: [] };
    const changed = hasCountableChange(
      condition,
      previous[condition.path],
      snapshotOf(condition.path, values),
    );
    const holds = operator === 'changed' ? changed : !changed;
    return { holds, values, satisfied: holds ? every() : [] };
  }
  const satisfied: number[] = [];
  values.forEach((v, i) => {
    if (holdsFor(operator, v, expected)) satisfied.push(i);
  });
  // A wildcard selection is itself a list: `rooms[*].code includes "DLX"` asks whether any room has it.
  if (
    satisfied.length === 0 &&
    (operator === 'includes' || operator === 'contains') &&
    pathHasWildcard(condition.path) &&
    expected !== undefined &&
    arrayIncludes(values, expected)
  ) {
    const wanted = Array.isArray(expected) ? expected : [expected];
    values.forEach((v, i) => {
      if (wanted.some((w) => valuesEqual(v, w))) satisfied.push(i);
    });
  }
  return { holds: satisfied.length > 0, values, satisfied };
}

export function evaluateWatch(
  config: Rules,
  data: unknown,
  previous?: Record<string, unknown> | null,
): WatchEvaluation {
  const results: ConditionResult[] = [];
  const kept: Record<string, unknown> = {};
  const groups: ['all' | 'any', Condition[]][] = [
    ['all', config.all ?? []],
    ['any', config.any ?? []],
  ];
  for (const [group, conditions] of groups) {
    for (const condition of conditions) {
      const outcome = evaluateCondition(condition, data, previous);
      results.push({ condition, group, ...outcome });
      if (condition.operator === 'changed' || condition.operator === 'not_changed') {
        // An answer without the required paths (an error page answered 200) says nothing about the
        // value: the baseline stays, so the next normal answer is compared with the last normal one.
        if (!outcome.missingRequired) kept[condition.path] = snapshotOf(condition.path, outcome.values);
        else if (previous && Object.hasOwn(previous, condition.path))
          kept[condition.path] = previous[condition.path];
      }
    }
  }
  const all = results.filter((r) => r.group === 'all');
  const any = results.filter((r) => r.group === 'any');
  const matched =
    results.length > 0 && all.every((r) => r.holds) && (any.length === 0 || any.some((r) => r.holds));
  return { matched, values: kept, results };
}
