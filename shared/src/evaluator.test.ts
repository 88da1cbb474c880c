import { describe, expect, it } from 'vitest';
import { evaluateWatch, selectPath, valuesEqual } from './evaluator.ts';
import type { Condition } from './watch.schema.ts';
import { conditionSchema, watchMessages } from './watch.schema.ts';

const answer = {
  resort: 'Grand Floridian',
  available: true,
  availableText: 'true',
  count: 3,
  price: '412.50',
  nothing: null,
  codes: ['DLX', 'MOD'],
  rooms: [
    { code: 'DLX', price: 450, status: 'SOLD_OUT', tags: ['view', 'club'] },
    { code: 'MOD', price: '210', status: 'OPEN', tags: [] },
  ],
  'room type': { 'king bed': 'yes' },
};

const cond = (c: Partial<Condition> & Pick<Condition, 'path' | 'operator'>): Condition => c;
const holds = (c: Condition, data: unknown = answer, previous?: Record<string, unknown> | null) =>
  evaluateWatch({ all: [c], any: [] }, data, previous).matched;

describe('selectPath', () => {
  it('follows dot and bracket notation', () => {
    expect(selectPath(answer, 'resort')).toEqual(['Grand Floridian']);
    expect(selectPath(answer, 'rooms[1].code')).toEqual(['MOD']);
    expect(selectPath(answer, 'rooms.0.price')).toEqual([450]);
    expect(selectPath(answer, '["room type"]["king bed"]')).toEqual(['yes']);
    expect(selectPath(answer, "$['room type']['king bed']")).toEqual(['yes']);
  });

  it('selects the whole answer with $', () => {
    expect(selectPath('plain text', '$')).toEqual(['plain text']);
  });

  it('walks every array item with * in both notations', () => {
    expect(selectPath(answer, 'rooms[*].price')).toEqual([450, '210']);
    expect(selectPath(answer, 'rooms.*.code')).toEqual(['DLX', 'MOD']);
    expect(selectPath(answer, 'rooms[].status')).toEqual(['SOLD_OUT', 'OPEN']);
    expect(selectPath({ a: [{ b: [1, 2] }, { b: [3] }] }, 'a[*].b[*]')).toEqual([1, 2, 3]);
  });

  it('selects nothing for missing keys, out-of-range indexes and scalars in the way', () => {
    expect(selectPath(answer, 'missing')).toEqual([]);
    expect(selectPath(answer, 'rooms[5].code')).toEqual([]);
    expect(selectPath(answer, 'resort.length')).toEqual([]);
    expect(selectPath(answer, 'rooms.first')).toEqual([]);
    expect(selectPath(null, 'a.b')).toEqual([]);
  });

  it('keeps null as a selected value', () => {
    expect(selectPath(answer, 'nothing')).toEqual([null]);
  });

  it('does not read inherited properties', () => {
    expect(selectPath({}, 'constructor')).toEqual([]);
    expect(selectPath({}, '__proto__')).toEqual([]);
  });
});

describe('operators', () => {
  const cases: { name: string; t: Condition; f: Condition }[] = [
    {
      name: 'exists',
      t: cond({ path: 'resort', operator: 'exists' }),
      f: cond({ path: 'nothing', operator: 'exists' }),
    },
    {
      name: 'equals',
      t: cond({ path: 'count', operator: 'equals', value: 3 }),
      f: cond({ path: 'count', operator: 'equals', value: 4 }),
    },
    {
      name: 'not_equals',
      t: cond({ path: 'resort', operator: 'not_equals', value: 'Contemporary' }),
      f: cond({ path: 'resort', operator: 'not_equals', value: 'Grand Floridian' }),
    },
    {
      name: 'gt',
      t: cond({ path: 'count', operator: 'gt', value: 2 }),
      f: cond({ path: 'count', operator: 'gt', value: 3 }),
    },
    {
      name: 'gte',
      t: cond({ path: 'count', operator: 'gte', value: 3 }),
      f: cond({ path: 'count', operator: 'gte', value: 4 }),
    },
    {
      name: 'lt',
      t: cond({ path: 'count', operator: 'lt', value: 4 }),
      f: cond({ path: 'count', operator: 'lt', value: 3 }),
    },
    {
      name: 'lte',
      t: cond({ path: 'count', operator: 'lte', value: 3 }),
      f: cond({ path: 'count', operator: 'lte', value: 2 }),
    },
    {
      name: 'contains (substring)',
      t: cond({ path: 'resort', operator: 'contains', value: 'Flor' }),
      f: cond({ path: 'resort', operator: 'contains', value: 'flor' }),
    },
    {
      name: 'contains (array member)',
      t: cond({ path: 'codes', operator: 'contains', value: 'MOD' }),
      f: cond({ path: 'codes', operator: 'contains', value: 'VAL' }),
    },
    {
      name: 'includes',
      t: cond({ path: 'codes', operator: 'includes', value: 'DLX' }),
      f: cond({ path: 'codes', operator: 'includes', value: 'VAL' }),
    },
    {
      name: 'regex',
      t: cond({ path: 'resort', operator: 'regex', value: '^Grand\\s+F' }),
      f: cond({ path: 'resort', operator: 'regex', value: '^Floridian' }),
    },
  ];
  for (const { name, t, f } of cases) {
    it(`${name} holds and fails`, () => {
      expect(holds(t)).toBe(true);
      expect(holds(f)).toBe(false);
    });
  }

  it('compares numeric strings numerically on either side', () => {
    expect(holds(cond({ path: 'price', operator: 'lt', value: 500 }))).toBe(true);
    expect(holds(cond({ path: 'price', operator: 'gt', value: '412.4' }))).toBe(true);
    expect(holds(cond({ path: 'price', operator: 'gte', value: '1000' }))).toBe(false);
    expect(holds(cond({ path: 'price', operator: 'equals', value: 412.5 }))).toBe(true);
    expect(holds(cond({ path: 'count', operator: 'equals', value: '3' }))).toBe(true);
  });

  it('never compares non-numeric values numerically', () => {
    expect(holds(cond({ path: 'resort', operator: 'gt', value: 1 }))).toBe(false);
    expect(holds(cond({ path: 'available', operator: 'gte', value: 0 }))).toBe(false);
    expect(holds(cond({ path: 'count', operator: 'lt', value: 'many' }))).toBe(false);
    expect(holds(cond({ path: 'nothing', operator: 'lte', value: 0 }))).toBe(false);
  });

  it('equates booleans with their text', () => {
    expect(holds(cond({ path: 'available', operator: 'equals', value: 'true' }))).toBe(true);
    expect(holds(cond({ path: 'availableText', operator: 'equals', value: true }))).toBe(true);
    expect(holds(cond({ path: 'available', operator: 'equals', value: false }))).toBe(false);
  });

  it('does not hold when the comparison value is missing', () => {
    expect(holds(cond({ path: 'count', operator: 'equals' }))).toBe(false);
    expect(holds(cond({ path: 'count', operator: 'not_equals' }))).toBe(false);
    expect(holds(cond({ path: 'codes', operator: 'includes' }))).toBe(false);
    expect(holds(cond({ path: 'resort', operator: 'regex' }))).toBe(false);
  });

  it('does not hold when the path selects nothing', () => {
    for (const operator of ['exists', 'equals', 'not_equals', 'gt', 'contains', 'regex'] as const) {
      expect(holds(cond({ path: 'missing', operator, value: 'x' }))).toBe(false);
    }
  });

  it('includes every member when the value is a list', () => {
    expect(holds(cond({ path: 'codes', operator: 'includes', value: ['DLX', 'MOD'] }))).toBe(true);
    expect(holds(cond({ path: 'codes', operator: 'includes', value: ['DLX', 'VAL'] }))).toBe(false);
  });

  it('treats an invalid regular expression as not holding', () => {
    expect(holds(cond({ path: 'resort', operator: 'regex', value: '(unclosed' }))).toBe(false);
  });

  it('answers a catastrophic-backtracking pattern promptly (linear-time engine)', () => {
    const hostile = `${'a'.repeat(50_000)}!`;
    const c = cond({ path: 'text', operator: 'regex', value: '^(a+)+$' });
    // A backtracking engine would not return from this within the test's lifetime.
    expect(holds(c, { text: hostile })).toBe(false);
    expect(holds(c, { text: 'aaaa' })).toBe(true);
  });

  it('matches regexes against numbers and booleans as text', () => {
    expect(holds(cond({ path: 'count', operator: 'regex', value: '^3$' }))).toBe(true);
  });
});

describe('wildcards', () => {
  it('holds when any selected item satisfies the operator', () => {
    expect(holds(cond({ path: 'rooms[*].price', operator: 'lt', value: 300 }))).toBe(true);
    expect(holds(cond({ path: 'rooms[*].price', operator: 'lt', value: 200 }))).toBe(false);
    expect(holds(cond({ path: 'rooms[*].status', operator: 'equals', value: 'OPEN' }))).toBe(true);
    expect(holds(cond({ path: 'rooms[*].status', operator: 'not_equals', value: 'SOLD_OUT' }))).toBe(true);
    expect(
      holds(cond({ path: 'rooms[*].status', operator: 'not_equals', value: 'SOLD_OUT' }), {
        rooms: [{ status: 'SOLD_OUT' }, { status: 'SOLD_OUT' }],
      }),
    ).toBe(false);
  });

  it('treats the selection itself as a list for includes and contains', () => {
    expect(holds(cond({ path: 'rooms[*].code', operator: 'includes', value: 'MOD' }))).toBe(true);
    expect(holds(cond({ path: 'rooms[*].code', operator: 'contains', value: 'DLX' }))).toBe(true);
    expect(holds(cond({ path: 'rooms[*].code', operator: 'includes', value: 'VAL' }))).toBe(false);
    expect(holds(cond({ path: 'rooms[*].tags', operator: 'includes', value: 'club' }))).toBe(true);
  });

  it('reports the selected values per condition', () => {
    const result = evaluateWatch(
      { all: [cond({ path: 'rooms[*].price', operator: 'exists' })], any: [] },
      answer,
    );
    expect(result.results).toEqual([
      expect.objectContaining({ group: 'all', holds: true, values: [450, '210'] }),
    ]);
  });
});

describe('changed and not_changed', () => {
  const changed = cond({ path: 'count', operator: 'changed' });
  const unchanged = cond({ path: 'count', operator: 'not_changed' });

  it('keeps the selected value under the condition path for the next poll', () => {
    expect(evaluateWatch({ all: [changed], any: [] }, answer).values).toEqual({ count: 3 });
    expect(
      evaluateWatch({ all: [cond({ path: 'rooms[*].code', operator: 'changed' })] }, answer).values,
    ).toEqual({ 'rooms[*].code': ['DLX', 'MOD'] });
    expect(evaluateWatch({ all: [changed], any: [] }, {}).values).toEqual({ count: null });
  });

  it('keeps nothing for conditions that do not compare with the past', () => {
    expect(
      evaluateWatch({ all: [cond({ path: 'count', operator: 'gt', value: 1 })] }, answer).values,
    ).toEqual({});
  });

  it('holds neither on the first poll, when nothing was kept', () => {
    expect(holds(changed, answer, null)).toBe(false);
    expect(holds(unchanged, answer, null)).toBe(false);
    expect(holds(changed, answer, { other: 1 })).toBe(false);
  });

  it('compares with the previous value', () => {
    expect(holds(changed, answer, { count: 2 })).toBe(true);
    expect(holds(unchanged, answer, { count: 2 })).toBe(false);
    expect(holds(changed, answer, { count: 3 })).toBe(false);
    expect(holds(unchanged, answer, { count: 3 })).toBe(true);
    expect(holds(changed, answer, { count: '3' })).toBe(false);
  });

  it('counts a value that disappeared or appeared as a change', () => {
    expect(holds(changed, {}, { count: 3 })).toBe(true);
    expect(holds(changed, answer, { count: null })).toBe(true);
    expect(holds(unchanged, {}, { count: null })).toBe(true);
  });

  it('ignores the listed from/to pairs', () => {
    const ignoring = cond({ path: 'count', operator: 'changed', ignoreChanges: [{ from: 2, to: 3 }] });
    expect(holds(ignoring, answer, { count: 2 })).toBe(false);
    expect(holds(ignoring, answer, { count: 1 })).toBe(true);
    const ignoringNot = cond({ path: 'count', operator: 'not_changed', ignoreChanges: [{ from: 2, to: 3 }] });
    expect(holds(ignoringNot, answer, { count: 2 })).toBe(true);
  });

  it('treats a missing from or to as any value', () => {
    const toZero = cond({ path: 'count', operator: 'changed', ignoreChanges: [{ to: 0 }] });
    expect(holds(toZero, { count: 0 }, { count: 5 })).toBe(false);
    expect(holds(toZero, { count: 4 }, { count: 5 })).toBe(true);
    const fromNull = cond({ path: 'count', operator: 'changed', ignoreChanges: [{ from: null }] });
    expect(holds(fromNull, answer, { count: null })).toBe(false);
  });

  it('applies ignoreChanges item by item over a wildcard list', () => {
    const c = cond({
      path: 'rooms[*].status',
      operator: 'changed',
      ignoreChanges: [{ from: 'OPEN', to: 'SOLD_OUT' }],
    });
    const prev = { 'rooms[*].status': ['OPEN', 'OPEN'] };
    expect(holds(c, { rooms: [{ status: 'SOLD_OUT' }, { status: 'OPEN' }] }, prev)).toBe(false);
    expect(holds(c, { rooms: [{ status: 'OPEN' }, { status: 'WAITLIST' }] }, prev)).toBe(true);
    expect(holds(c, { rooms: [{ status: 'OPEN' }] }, prev)).toBe(true);
  });
});

describe('requiredPaths', () => {
  it('holds only when every required path exists', () => {
    const c = cond({ path: 'count', operator: 'gt', value: 1, requiredPaths: ['resort', 'rooms[*].code'] });
    expect(holds(c)).toBe(true);
    expect(holds({ ...c, requiredPaths: ['resort', 'missing'] })).toBe(false);
    expect(holds({ ...c, requiredPaths: ['nothing'] })).toBe(false);
  });

  it('stops changed from holding when a required path is missing', () => {
    const c = cond({ path: 'count', operator: 'changed', requiredPaths: ['missing'] });
    expect(holds(c, answer, { count: 1 })).toBe(false);
  });

  it('keeps the changed baseline through an answer lacking a required path', () => {
    const c = cond({ path: 'price', operator: 'changed', requiredPaths: ['price'] });
    const busy = evaluateWatch({ all: [c] }, { error: 'busy' }, { price: 300 });
    expect(busy.values).toEqual({ price: 300 });
    expect(evaluateWatch({ all: [c] }, { price: 300 }, busy.values).matched).toBe(false);
    expect(evaluateWatch({ all: [c] }, { error: 'busy' }, null).values).toEqual({});
  });
});

describe('all and any', () => {
  const yes = cond({ path: 'count', operator: 'equals', value: 3 });
  const no = cond({ path: 'count', operator: 'equals', value: 9 });

  it('needs every all condition', () => {
    expect(evaluateWatch({ all: [yes, yes], any: [] }, answer).matched).toBe(true);
    expect(evaluateWatch({ all: [yes, no], any: [] }, answer).matched).toBe(false);
  });

  it('needs at least one any condition when any is non-empty', () => {
    expect(evaluateWatch({ all: [], any: [no, yes] }, answer).matched).toBe(true);
    expect(evaluateWatch({ all: [], any: [no, no] }, answer).matched).toBe(false);
    expect(evaluateWatch({ all: [yes], any: [no] }, answer).matched).toBe(false);
    expect(evaluateWatch({ all: [yes], any: [no, yes] }, answer).matched).toBe(true);
  });

  it('never matches with no conditions', () => {
    expect(evaluateWatch({ all: [], any: [] }, answer).matched).toBe(false);
    expect(evaluateWatch({}, answer).matched).toBe(false);
  });

  it('reports every condition in order with its group', () => {
    const r = evaluateWatch({ all: [yes], any: [no] }, answer);
    expect(r.results.map((x) => [x.group, x.holds])).toEqual([
      ['all', true],
      ['any', false],
    ]);
  });
});

describe('valuesEqual', () => {
  it('compares lists and objects deeply', () => {
    expect(valuesEqual({ a: [1, { b: '2' }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(valuesEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(valuesEqual([1], 1)).toBe(false);
    expect(valuesEqual(null, 0)).toBe(false);
    expect(valuesEqual('', 0)).toBe(false);
  });
});

describe('regex validation at write time', () => {
  it('rejects an invalid pattern with the shared message', () => {
    const r = conditionSchema.safeParse({ path: 'a', operator: 'regex', value: '(unclosed' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['value'], message: watchMessages.invalidRegex });
  });

  it('rejects a pattern that is not text and a backreference RE2 does not support', () => {
    expect(conditionSchema.safeParse({ path: 'a', operator: 'regex', value: 5 }).success).toBe(false);
    expect(conditionSchema.safeParse({ path: 'a', operator: 'regex', value: '(a)\\1' }).success).toBe(false);
  });

  it('accepts a valid pattern and leaves other operators alone', () => {
    expect(conditionSchema.safeParse({ path: 'a', operator: 'regex', value: '^\\d+$' }).success).toBe(true);
    expect(conditionSchema.safeParse({ path: 'a', operator: 'equals', value: '(' }).success).toBe(true);
  });
});
