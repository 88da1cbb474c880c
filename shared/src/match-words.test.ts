import { describe, expect, it } from 'vitest';
import { evaluateWatch } from './evaluator.ts';
import { describeSatisfied, explainEvaluation, watchedValue } from './match-words.ts';
import type { Condition } from './watch.schema.ts';

const answer = {
  resort: 'Lagoon Lodge',
  anyAvailable: true,
  tags: ['pool', 'monorail'],
  note: 'Club level opens soon',
  rooms: [
    { name: 'Lagoon View', code: 'LV', available: true, remaining: 2, price: 689 },
    { name: 'Garden View', code: 'GV', available: false, remaining: 0, price: 1200 },
    { name: 'Theme Park View', code: 'TP', available: true, remaining: 1, price: '950' },
  ],
};
const previous = { 'rooms[*].available': [false, false, true], anyAvailable: true };

/** Every rule operator, on plain paths and wildcards. */
const cases: Condition[] = [
  { path: 'resort', operator: 'exists' },
  { path: 'missing', operator: 'exists' },
  { path: 'resort', operator: 'equals', value: 'Lagoon Lodge' },
  { path: 'rooms[*].code', operator: 'not_equals', value: 'LV' },
  { path: 'rooms[*].price', operator: 'gt', value: 900 },
  { path: 'rooms[*].price', operator: 'gte', value: 950 },
  { path: 'rooms[*].price', operator: 'lt', value: 700 },
  { path: 'rooms[*].price', operator: 'lte', value: 1000 },
  { path: 'note', operator: 'contains', value: 'Club' },
  { path: 'tags', operator: 'includes', value: 'pool' },
  { path: 'rooms[*].code', operator: 'includes', value: 'TP' },
  { path: 'rooms[*].name', operator: 'regex', value: '^Theme' },
  { path: 'rooms[*].available', operator: 'changed' },
  { path: 'anyAvailable', operator: 'not_changed' },
  { path: 'rooms[*].price', operator: 'lte', value: 1000, requiredPaths: ['nowhere'] },
];

describe('explainEvaluation: the evaluator’s own figures, rule by rule', () => {
  for (const condition of cases) {
    it(`${condition.path} ${condition.operator}${condition.requiredPaths ? ' (required path missing)' : ''}`, () => {
      const config = { all: [condition] };
      const evaluation = evaluateWatch(config, answer, previous);
      const explained = explainEvaluation(config, answer, previous);
      const [result] = evaluation.results;
      const [rule] = explained.rules;
      expect(explained.matched).toBe(evaluation.matched);
      expect(rule!.holds).toBe(result!.holds);
      expect(rule!.found).toEqual(result!.values);
      expect(rule!.foundCount).toBe(result!.values.length);
      expect(rule!.matched).toEqual(result!.satisfied.map((i) => result!.values[i]));
      expect(rule!.matchedCount).toBe(result!.satisfied.length);
      // Only satisfying values are "matched", and a rule that fails matched nothing.
      if (!rule!.holds) expect(rule!.matched).toEqual([]);
    });
  }

  it('names exactly the satisfying values of a wildcard rule', () => {
    const { rules } = explainEvaluation(
      { any: [{ path: 'rooms[*].price', operator: 'lte', value: 1000 }] },
      answer,
      null,
    );
    expect(rules[0]).toMatchObject({ found: [689, 1200, '950'], matched: [689, '950'], holds: true });
    expect(rules[0]!.words).toEqual([
      'Lagoon View: 2 rooms available at $689',
      'Theme Park View: 1 room available at $950',
    ]);
  });

  it('combines all and any as the evaluator does', () => {
    const all = [{ path: 'anyAvailable', operator: 'equals', value: true } as Condition];
    const anyHolds = [
      { path: 'rooms[*].price', operator: 'lt', value: 100 } as Condition,
      { path: 'tags', operator: 'includes', value: 'monorail' } as Condition,
    ];
    const anyFails = [{ path: 'rooms[*].price', operator: 'lt', value: 100 } as Condition];
    for (const config of [
      { all, any: anyHolds },
      { all, any: anyFails },
      { all: [...all, anyFails[0]!], any: [] },
      { all: [], any: [] },
    ]) {
      const explained = explainEvaluation(config, answer, null);
      expect(explained.matched).toBe(evaluateWatch(config, answer, null).matched);
    }
    const mixed = explainEvaluation({ all, any: anyHolds }, answer, null);
    expect(mixed).toMatchObject({ matched: true, allHeld: true, anyHeld: true });
    expect(explainEvaluation({ all, any: anyFails }, answer, null)).toMatchObject({
      matched: false,
      allHeld: true,
      anyHeld: false,
    });
  });

  it('shows the kept value a changed rule compared against', () => {
    const { rules } = explainEvaluation(
      { all: [{ path: 'rooms[*].available', operator: 'changed' }] },
      answer,
      previous,
    );
    expect(rules[0]).toMatchObject({ holds: true, previous: [false, false, true] });
  });
});

describe('describeSatisfied and watchedValue', () => {
  it('reads plain paths as label and value', () => {
    const [result] = evaluateWatch(
      { all: [{ path: 'anyAvailable', operator: 'equals', value: true, label: 'Any room' }] },
      answer,
    ).results;
    expect(describeSatisfied(result!, answer)).toEqual({ phrases: ['Any room: true'], more: 0 });
  });

  it('plots the best satisfying number: the lowest for at-most rules, else the highest', () => {
    const lte = evaluateWatch(
      { all: [{ path: 'rooms[*].price', operator: 'lte', value: 1000 }] },
      answer,
    ).results;
    expect(watchedValue(lte)).toBe(689);
    const gt = evaluateWatch(
      { all: [{ path: 'rooms[*].remaining', operator: 'gt', value: 0 }] },
      answer,
    ).results;
    expect(watchedValue(gt)).toBe(2);
    const none = evaluateWatch({ all: [{ path: 'resort', operator: 'exists' }] }, answer).results;
    expect(watchedValue(none)).toBeNull();
  });
});
