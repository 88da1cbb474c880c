import { RE2JS } from 're2js';

/**
 * Patterns come from admins and users and run against upstream answers on every poll, so they go
 * through RE2 (linear time): a pattern like `(a+)+$` cannot stall the engine. Compiled patterns are
 * cached; an invalid pattern is remembered as null.
 */
const cache = new Map<string, RE2JS | null>();
const CACHE_LIMIT = 1000;

export function compileSafeRegex(pattern: string): RE2JS | null {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let compiled: RE2JS | null;
  try {
    compiled = RE2JS.compile(pattern);
  } catch {
    compiled = null;
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

export function isValidRegex(pattern: string): boolean {
  return compileSafeRegex(pattern) !== null;
}

/** True when the pattern matches anywhere in the input; an invalid pattern never matches. */
export function testSafeRegex(pattern: string, input: string): boolean {
  return compileSafeRegex(pattern)?.test(input) ?? false;
}
