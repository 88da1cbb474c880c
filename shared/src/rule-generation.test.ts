import { describe, expect, it } from 'vitest';
import {
  collectRuleCandidates,
  defaultThreshold,
  generateRules,
  generatorMessages,
  humanisePath,
  ruleGenerationLimits,
} from './rule-generation.ts';
import { presetSchema } from './watch.schema.ts';

function rulesOf(data: unknown) {
  const result = generateRules({ status: 200, data });
  if (!result.ok) throw new Error(result.message);
  return result.rules;
}

describe('rule generation constants', () => {
  it('pins every constant', () => {
    expect(ruleGenerationLimits).toEqual({
      maxRules: 12,
      candidateCap: 60,
      arrayItemsScanned: 5,
      numberScore: 2,
      otherScore: 1,
      priceLikeBonus: 4,
      thresholdRatio: 0.95,
    });
  });
});

describe('generateRules', () => {
  it('turns a response with 100 numeric fields into exactly 12 rules, price-like paths first', () => {
    // 100 numeric fields; two price-like names sit among the first 60 candidates.
    const withPrices: Record<string, number> = {};
    for (let i = 0; i < 100; i += 1) {
      const name = i === 20 ? 'nightlyPrice' : i === 40 ? 'totalAmount' : `metric${i}`;
      withPrices[name] = 100 + i;
    }
    const rules = rulesOf(withPrices);
    expect(rules).toHaveLength(12);
    expect(rules.slice(0, 2).map((r) => r.condition.path)).toEqual(['nightlyPrice', 'totalAmount']);
    // The rest keep document order.
    expect(rules.slice(2, 5).map((r) => r.condition.path)).toEqual(['metric0', 'metric1', 'metric2']);
  });

  it('sets each number threshold to 95 % of the sample value, rounded', () => {
    const rules = rulesOf({ price: 199.99, total: 10, fare: 31 });
    expect(rules.map((r) => r.condition.value)).toEqual([190, 10, 29]);
    expect(defaultThreshold(199.99)).toBe(190);
    expect(defaultThreshold(10)).toBe(10); // 9.5 rounds up
    expect(defaultThreshold(31)).toBe(29); // 29.45 rounds down
    expect(rules[0]).toMatchObject({
      condition: { path: 'price', operator: 'lte', value: 190 },
      input: { type: 'number', defaultValue: 190, required: true },
    });
  });

  it('scores numbers 2, booleans 1, and adds 4 for price, rate, total, amount, cost or fare', () => {
    const candidates = collectRuleCandidates({
      available: true,
      count: 3,
      rateAvailable: false,
      price: 1,
      Rate: 2,
      grandTotal: 3,
      amount: 4,
      roomCost: 5,
      fare: 6,
    });
    expect(candidates.map((c) => [c.path, c.score])).toEqual([
      ['available', 1],
      ['count', 2],
      ['rateAvailable', 5],
      ['price', 6],
      ['Rate', 6],
      ['grandTotal', 6],
      ['amount', 6],
      ['roomCost', 6],
      ['fare', 6],
    ]);
  });

  it('ranks a price-like boolean (5) above a plain number (2)', () => {
    const rules = rulesOf({ count: 3, rateOpen: true });
    expect(rules.map((r) => r.condition.path)).toEqual(['rateOpen', 'count']);
    expect(rules[0]).toMatchObject({
      condition: { operator: 'equals', value: true },
      input: { type: 'boolean' },
    });
  });

  it('stops collecting candidates at 60: a price after the 60th value is never considered', () => {
    const data: Record<string, number> = {};
    for (let i = 0; i < 60; i += 1) data[`v${i}`] = i;
    data.price = 100;
    expect(collectRuleCandidates(data)).toHaveLength(60);
    expect(rulesOf(data).map((r) => r.condition.path)).not.toContain('price');
  });

  it('scans only the first 5 items of each array', () => {
    const rooms = Array.from({ length: 8 }, (_, i) => ({ price: 100 + i }));
    const paths = collectRuleCandidates({ rooms }).map((c) => c.path);
    expect(paths).toEqual([
      'rooms[0].price',
      'rooms[1].price',
      'rooms[2].price',
      'rooms[3].price',
      'rooms[4].price',
    ]);
  });

  it('produces presets the template schema accepts, with unique ids and the first one enabled', () => {
    const rules = rulesOf({ rooms: [{ price: 120, available: true }], 'odd key': 1, odd_key: 2 });
    for (const rule of rules) expect(presetSchema.safeParse(rule).success).toBe(true);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    expect(rules.map((r) => r.defaultEnabled)).toEqual([true, false, false, false]);
    expect(rules[0]).toMatchObject({ label: 'Rooms #1 price at most', group: 'generated' });
  });

  it('refuses without a successful test', () => {
    for (const result of [
      undefined,
      null,
      { status: 500, data: { price: 1 } },
      { status: 199, data: { price: 1 } },
      { status: 404, data: { price: 1 } },
      { status: 200 },
      { status: 200, data: null },
    ]) {
      expect(generateRules(result)).toEqual({ ok: false, message: generatorMessages.needSuccessfulTest });
    }
    expect(generateRules({ status: 399, data: { price: 1 } }).ok).toBe(true);
  });

  it('says so when the answer has no numbers or booleans, or is not JSON', () => {
    expect(generateRules({ status: 200, data: { name: 'x', list: ['a'] } })).toEqual({
      ok: false,
      message: generatorMessages.noNumericOrBoolean,
    });
    expect(generateRules({ status: 200, data: '<html>' })).toEqual({
      ok: false,
      message: generatorMessages.rulesFailed,
    });
  });
});

describe('humanisePath', () => {
  it('reads paths as words', () => {
    expect(humanisePath('rooms[0].nightlyPrice')).toBe('Rooms #1 nightly price');
    expect(humanisePath('meta["room.type"]')).toBe('Meta room type');
    expect(humanisePath('total_amount')).toBe('Total amount');
  });
});
