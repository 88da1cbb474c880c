import { messages } from '@resort/shared';
import { describe, expect, it } from 'vitest';
import { bodyProblem, MAX_JSON_DEPTH } from './body-guard.ts';

/** `depth` arrays and objects inside one another, around a number. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

describe('bodyProblem', () => {
  it('accepts ordinary bodies, up to the depth limit', () => {
    expect(bodyProblem({ name: 'Ada', tags: ['a', { b: [1, null, true] }] })).toBeNull();
    expect(bodyProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(bodyProblem('text')).toBeNull();
    expect(bodyProblem(null)).toBeNull();
  });

  it('refuses nesting beyond the limit, however deep, without overflowing the stack', () => {
    expect(bodyProblem(nested(MAX_JSON_DEPTH + 1))).toBe(messages.common.jsonTooDeep);
    expect(bodyProblem(nested(1_000_000))).toBe(messages.common.jsonTooDeep);
  });

  it('refuses NUL characters in values and keys, at any depth', () => {
    expect(bodyProblem({ a: [{ b: 'x\u0000y' }] })).toBe(messages.common.nulCharacter);
    expect(bodyProblem({ 'k\u0000': 1 })).toBe(messages.common.nulCharacter);
    expect(bodyProblem('\u0000')).toBe(messages.common.nulCharacter);
  });
});
