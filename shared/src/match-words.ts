import { type ConditionResult, evaluateWatch } from './evaluator.ts';
import { parsePath, selectPathEntries } from './json-path.ts';
import type { Condition } from './watch.schema.ts';

/**
 * What an evaluation found, in words (issue [alert-insight]): notification messages and the alert
 * page's explanation name only the values that satisfied a rule, read from the record each value
 * belongs to ("Lagoon View: 2 rooms available at $689"), never every value the path selected.
 */

export const operatorWords: Record<Condition['operator'], string> = {
  exists: 'exists',
  equals: 'equals',
  not_equals: 'is not',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  contains: 'contains',
  includes: 'includes',
  regex: 'matches',
  changed: 'changed',
  not_changed: 'did not change',
};

const nameKeys = ['name', 'label', 'title', 'roomName', 'room', 'description', 'code'];
const priceKey = /price|rate|total|amount|cost|fare/i;
const countKeys = ['remaining', 'availableCount', 'available_count', 'count', 'quantity', 'left'];

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function lastKey(path: string): string | null {
  const segments = parsePath(path);
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i]!;
    if (s.kind === 'key') return s.key;
  }
  return null;
}

function money(value: unknown, currency: unknown): string {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return show(value);
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: code,
      maximumFractionDigits: Number.isInteger(n) ? 0 : 2,
    }).format(n);
  } catch {
    return `${n} ${code}`;
  }
}

function unitOf(listKey: string | null, n: number): string {
  const plural = listKey && /^[a-z][a-z ]*s$/i.test(listKey) ? listKey : 'places';
  return n === 1 ? plural.replace(/s$/, '') : plural;
}

function countPhrase(n: number, listKey: string | null): string {
  return `${n} ${unitOf(listKey, n)} available`;
}

function nameOf(record: Record<string, unknown>, key: string | null): string | null {
  for (const k of nameKeys) {
    const v = record[k];
    if (k !== key && typeof v === 'string' && v.trim()) return v.trim();
  }
  return null;
}

/** One satisfying value in words, from the record it was read from. */
function phraseFor(
  condition: Condition,
  value: unknown,
  record: Record<string, unknown> | null,
  listKey: string | null,
): string {
  const key = lastKey(condition.path);
  const label = condition.label?.trim() || key || condition.path;
  if (!record) return `${label}: ${show(value)}`;
  const name = nameOf(record, key);
  const parts: string[] = [];
  const countKey = countKeys.find((k) => typeof record[k] === 'number');
  if (key && countKeys.includes(key) && typeof value === 'number') {
    parts.push(countPhrase(value, listKey));
  } else if (countKey && key !== countKey && (record[countKey] as number) > 0) {
    parts.push(countPhrase(record[countKey] as number, listKey));
  } else if (record.available === true && key !== 'available') {
    parts.push('available');
  }
  if (key && priceKey.test(key)) parts.push(`at ${money(value, record.currency)}`);
  else if (value === true && /avail|open/i.test(key ?? '')) {
    // "available: true" is what the count phrase already says.
    if (parts.length === 0) parts.push('available');
  } else if (!(key && countKeys.includes(key))) parts.push(`${label} ${show(value)}`);
  const text = parts.join(' ');
  return name ? `${name}: ${text}` : text;
}

export interface SatisfiedWords {
  phrases: string[];
  /** Satisfying values beyond the phrases listed. */
  more: number;
}

/** The values of one held rule that satisfied it, in words; at most `limit` of them. */
export function describeSatisfied(result: ConditionResult, data: unknown, limit = 5): SatisfiedWords {
  const { condition } = result;
  if (!result.holds) return { phrases: [], more: 0 };
  if (condition.operator === 'changed' || condition.operator === 'not_changed') {
    const label = condition.label?.trim() || condition.path;
    return { phrases: [`${label} ${operatorWords[condition.operator]}`], more: 0 };
  }
  const entries = selectPathEntries(data, condition.path);
  const phrases: string[] = [];
  const seen = new Set<string>();
  for (const index of result.satisfied) {
    const entry = entries[index];
    if (!entry) continue;
    // A value read from a list item is described from its item; any other as label and value.
    const record = entry.listKey !== null ? entry.record : null;
    const phrase = phraseFor(condition, entry.value, record, entry.listKey);
    if (seen.has(phrase)) continue;
    seen.add(phrase);
    phrases.push(phrase);
  }
  return { phrases: phrases.slice(0, limit), more: Math.max(0, phrases.length - limit) };
}

/** Phrases joined for a message: "A; B and 3 more". */
export function joinPhrases(words: SatisfiedWords): string {
  const text = words.phrases.join('; ');
  return words.more > 0 ? `${text} and ${words.more} more` : text;
}

export interface RuleExplanation {
  group: 'all' | 'any';
  path: string;
  label: string | null;
  operator: Condition['operator'];
  operatorWords: string;
  expected: unknown;
  /** The values the path selected (at most `maxValues`), and how many there were. */
  found: unknown[];
  foundCount: number;
  /** The values that satisfied the rule (at most `maxValues`), and how many there were. */
  matched: unknown[];
  matchedCount: number;
  holds: boolean;
  missingRequired: boolean;
  /** The value kept from the previous poll (changed / not_changed). */
  previous?: unknown;
  /** The matched values in words. */
  words: string[];
}

export interface EvaluationExplanation {
  matched: boolean;
  /** Whether every `all` rule held (null without `all` rules), and whether some `any` rule did. */
  allHeld: boolean | null;
  anyHeld: boolean | null;
  rules: RuleExplanation[];
}

const maxValues = 20;

/**
 * The evaluator's verdict rule by rule: computed by `evaluateWatch` itself, so every figure shown is
 * the evaluator's (acceptance 3 of [alert-insight]).
 */
export function explainEvaluation(
  config: { all?: Condition[]; any?: Condition[] },
  data: unknown,
  previous: Record<string, unknown> | null,
): EvaluationExplanation {
  const evaluation = evaluateWatch(config, data, previous);
  const rules = evaluation.results.map((r): RuleExplanation => {
    const changeRule = r.condition.operator === 'changed' || r.condition.operator === 'not_changed';
    return {
      group: r.group,
      path: r.condition.path,
      label: r.condition.label ?? null,
      operator: r.condition.operator,
      operatorWords: operatorWords[r.condition.operator],
      expected: r.condition.value ?? null,
      found: r.values.slice(0, maxValues),
      foundCount: r.values.length,
      matched: r.satisfied.slice(0, maxValues).map((i) => r.values[i]),
      matchedCount: r.satisfied.length,
      holds: r.holds,
      missingRequired: r.missingRequired ?? false,
      ...(changeRule ? { previous: previous?.[r.condition.path] ?? null } : {}),
      words: describeSatisfied(r, data, maxValues).phrases,
    };
  });
  const all = rules.filter((r) => r.group === 'all');
  const any = rules.filter((r) => r.group === 'any');
  return {
    matched: evaluation.matched,
    allHeld: all.length ? all.every((r) => r.holds) : null,
    anyHeld: any.length ? any.some((r) => r.holds) : null,
    rules,
  };
}

/**
 * The number a timeline plots for one poll: from the first rule that selected numbers, the best value
 * that satisfied it (the lowest for lt/lte, else the highest), or the best selected when none did.
 */
export function watchedValue(
  results: readonly Pick<ConditionResult, 'condition' | 'values' | 'satisfied'>[],
): number | null {
  for (const r of results) {
    const numbers = (indexes: number[]) =>
      indexes.map((i) => r.values[i]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    const chosen = numbers(r.satisfied);
    const pool = chosen.length > 0 ? chosen : numbers(r.values.map((_, i) => i));
    if (pool.length === 0) continue;
    const lowest = r.condition.operator === 'lt' || r.condition.operator === 'lte';
    return lowest ? Math.min(...pool) : Math.max(...pool);
  }
  return null;
}
