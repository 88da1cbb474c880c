import { describe, expect, it } from 'vitest';
import { storableJson, storableParsedJson, storableText, storableTextOrNull } from './storable.ts';

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

describe('storableParsedJson', () => {
  const parsed = (text: string) => storableParsedJson(text, JSON.parse(text) as unknown);

  it('walks a value whose text escapes U+0000 or a surrogate, in strings and keys', () => {
    expect(parsed('{"a\\u0000":"x\\u0000"}')).toEqual({ 'a\uFFFD': 'x\uFFFD' });
    expect(parsed('["\\uDC00", "\\ud83d"]')).toEqual(['\uFFFD', '\uFFFD']);
    // A pair is kept.
    expect(parsed('"\\ud83d\\ude00"')).toBe('\ud83d\ude00');
  });

  it('answers the parsed value itself when its text escapes neither', () => {
    const text = '{"name":"Caf\\u00e9","rooms":[{"open":true}],"escaped":"\\\\u0000"}';
    const value = JSON.parse(text) as unknown;
    expect(storableParsedJson(text, value)).toBe(value);
    expect(storableParsedJson('{"name":"\\u00e9"}', { n: 1 })).toEqual({ n: 1 });
  });
});
