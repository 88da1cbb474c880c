import { describe, expect, it } from 'vitest';
import { storableJson, storableText, storableTextOrNull } from './storable.ts';

describe('storableText', () => {
  it('replaces NUL and lone surrogates with U+FFFD and keeps surrogate pairs', () => {
    expect(storableText('a\0b\0')).toBe('a\uFFFDb\uFFFD');
    expect(storableText('x\uD800y')).toBe('x\uFFFDy');
    expect(storableText('\uDC00end')).toBe('\uFFFDend');
    expect(storableText('trail\uD83D')).toBe('trail\uFFFD');
    expect(storableText('pair 😀 ok')).toBe('pair 😀 ok');
  });

  it('answers the same string when nothing needs replacing', () => {
    const text = 'plain text, ünïcode 😀';
    expect(storableText(text)).toBe(text);
    expect(storableTextOrNull(null)).toBeNull();
    expect(storableTextOrNull(undefined)).toBeNull();
  });
});

describe('storableJson', () => {
  it('replaces in nested strings and keys, and the JSON text holds no escape PostgreSQL refuses', () => {
    const value = { 'k\0': ['a\0', { deep: 'x\uDFFF' }, 1, true, null], ok: 'fine' };
    const storable = storableJson(value);
    expect(storable).toEqual({ 'k\uFFFD': ['a\uFFFD', { deep: 'x\uFFFD' }, 1, true, null], ok: 'fine' });
    expect(JSON.stringify(storable)).not.toMatch(/\\u0000|\\ud[89a-f]/i);
  });

  it('answers the same objects where nothing changed', () => {
    const untouched = { a: [1, 'b'], c: { d: 'e' } };
    expect(storableJson(untouched)).toBe(untouched);
    const mixed = { bad: 'x\0', good: { d: 'e' } };
    const out = storableJson(mixed);
    expect(out).not.toBe(mixed);
    expect(out.good).toBe(mixed.good);
  });

  it('keeps values that are not plain objects as they are', () => {
    const date = new Date(0);
    expect(storableJson({ date }).date).toBe(date);
    expect(storableJson('\0')).toBe('\uFFFD');
    expect(storableJson(42)).toBe(42);
  });
});
