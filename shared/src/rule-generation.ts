import { formatObjectPath, isPlainObject, type ObjectPathSegment } from './json-path.ts';
import type { Preset } from './watch.schema.ts';

/** Every message of the generators (template samples, override fields, alert rules). */
export const generatorMessages = {
  selectTemplate: 'Select a template before generating alerts.',
  sampleNotObject: 'Template sample is not a valid object.',
  sampleMissingRoomLookup: 'Template sample does not include room lookup details.',
  noAlertsFromSample: 'No alerts could be derived from the provided template sample.',
  noNumericOrBoolean: 'No numeric or boolean values were found in the response to build alert rules from.',
  rulesFailed: 'Unable to derive alert rules from the response.',
  noOverrideFields: 'No override fields could be derived from the current request configuration.',
  needSuccessfulTest: 'Run a successful template test before generating alert rules.',
} as const;

/** The constants for rule generation from a test response (docs/product.md, "Limits and constants"). */
export const ruleGenerationLimits = {
  maxRules: 12,
  candidateCap: 60,
  arrayItemsScanned: 5,
  numberScore: 2,
  otherScore: 1,
  priceLikeBonus: 4,
  thresholdRatio: 0.95,
} as const;

export const priceLikePattern = /price|rate|total|amount|cost|fare/i;

/** Generated rules share this preset group, so an admin can tell them from hand-written ones. */
export const generatedRuleGroup = { id: 'generated', label: 'Generated rules' } as const;

// Deeper answers are not worth walking: rules on them would be unreadable anyway.
const maxDepth = 32;

export interface RuleCandidate {
  path: string;
  value: number | boolean;
  score: number;
}

export type RuleGenerationResult = { ok: true; rules: Preset[] } | { ok: false; message: string };

/** A test result counts as successful when the upstream answered 200–399 with data. */
export function isSuccessfulTest(result: { status?: number | null; data?: unknown } | null | undefined) {
  return (
    !!result &&
    typeof result.status === 'number' &&
    result.status >= 200 &&
    result.status <= 399 &&
    result.data !== undefined &&
    result.data !== null
  );
}

/**
 * Numeric and boolean leaves of a JSON answer in document order, at most `candidateCap` of them,
 * looking at only the first `arrayItemsScanned` items of each array.
 */
export function collectRuleCandidates(data: unknown): RuleCandidate[] {
  const found: RuleCandidate[] = [];
  const walk = (value: unknown, segments: ObjectPathSegment[]): void => {
    if (found.length >= ruleGenerationLimits.candidateCap || segments.length > maxDepth) return;
    if (typeof value === 'number' && Number.isFinite(value)) {
      const path = formatObjectPath(segments);
      found.push({ path, value, score: scoreCandidate(path, value) });
    } else if (typeof value === 'boolean') {
      const path = formatObjectPath(segments);
      found.push({ path, value, score: scoreCandidate(path, value) });
    } else if (Array.isArray(value)) {
      value.slice(0, ruleGenerationLimits.arrayItemsScanned).forEach((item, i) => {
        walk(item, [...segments, i]);
      });
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) walk(item, [...segments, key]);
    }
  };
  walk(data, []);
  return found;
}

export function scoreCandidate(path: string, value: number | boolean): number {
  const base = typeof value === 'number' ? ruleGenerationLimits.numberScore : ruleGenerationLimits.otherScore;
  return base + (priceLikePattern.test(path) ? ruleGenerationLimits.priceLikeBonus : 0);
}

export function defaultThreshold(value: number): number {
  return Math.round(value * ruleGenerationLimits.thresholdRatio);
}

/**
 * Basic alert rules from a successful template test: the best-scoring numeric and
 * boolean values of the answer (price-like paths first, then document order), at most `maxRules`.
 * A number becomes "at most 95 % of the sample value" (a price drop); a boolean "equals true".
 */
export function generateRules(
  result: { status?: number | null; data?: unknown } | null | undefined,
): RuleGenerationResult {
  if (!isSuccessfulTest(result)) return { ok: false, message: generatorMessages.needSuccessfulTest };
  const data = result?.data;
  if (!isPlainObject(data) && !Array.isArray(data))
    return { ok: false, message: generatorMessages.rulesFailed };
  let candidates: RuleCandidate[];
  try {
    candidates = collectRuleCandidates(data);
  } catch {
    return { ok: false, message: generatorMessages.rulesFailed };
  }
  if (candidates.length === 0) return { ok: false, message: generatorMessages.noNumericOrBoolean };
  // Array.prototype.sort is stable, so equal scores keep document order.
  const chosen = [...candidates].sort((a, b) => b.score - a.score).slice(0, ruleGenerationLimits.maxRules);
  const ids = new Set<string>();
  return { ok: true, rules: chosen.map((c, i) => toPreset(c, uniqueId(c.path, ids), i === 0)) };
}

function toPreset(candidate: RuleCandidate, id: string, enabled: boolean): Preset {
  const label = humanisePath(candidate.path);
  if (typeof candidate.value === 'boolean') {
    return {
      id,
      label: `${label} is true`,
      description: `Generated from a test response where it was ${candidate.value}.`,
      group: generatedRuleGroup.id,
      condition: { path: candidate.path, label, operator: 'equals', value: true },
      input: { type: 'boolean', label: 'Expected value', required: true, defaultValue: true },
      defaultEnabled: enabled,
    };
  }
  const threshold = defaultThreshold(candidate.value);
  return {
    id,
    label: `${label} at most`,
    description: `Generated from a test response where it was ${candidate.value}.`,
    group: generatedRuleGroup.id,
    condition: { path: candidate.path, label, operator: 'lte', value: threshold },
    input: { type: 'number', label: 'Threshold', required: true, defaultValue: threshold },
    defaultEnabled: enabled,
  };
}

function uniqueId(path: string, taken: Set<string>): string {
  const slug =
    path
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'value';
  let id = `generated-${slug}`;
  for (let n = 2; taken.has(id); n += 1) id = `generated-${slug}-${n}`;
  taken.add(id);
  return id;
}

/** `rooms[0].nightlyPrice` → `Rooms #1 nightly price`. */
export function humanisePath(path: string): string {
  const words = path
    .replace(/\[(\d+)\]/g, (_, i: string) => ` #${Number(i) + 1} `)
    .replace(/\[["'](.*?)["']\]/g, ' $1 ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : path;
}
