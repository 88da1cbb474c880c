/**
 * Dot and bracket paths into JSON values: `party.adults`, `rooms[0].price`, `meta["x.y"]`.
 * Used by the request builder to write override values and by rule generation to name leaves.
 */
export type ObjectPathSegment = string | number;

// Writing through these would reach Object.prototype instead of the request body.
const forbiddenKeys = new Set(['__proto__', 'prototype', 'constructor']);
// A path may not make the builder allocate a huge array.
const maxIndex = 1000;

/** Splits a path into keys and array indexes; returns null for a malformed path. */
export function parseObjectPath(path: string): ObjectPathSegment[] | null {
  const segments: ObjectPathSegment[] = [];
  let i = 0;
  let expectKey = true;
  while (i < path.length) {
    const ch = path[i];
    if (ch === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) return null;
      const inner = path.slice(i + 1, close).trim();
      const quoted = /^(["'])(.*)\1$/.exec(inner);
      if (quoted) segments.push(quoted[2]!);
      else if (/^\d+$/.test(inner) && Number(inner) <= maxIndex) segments.push(Number(inner));
      else return null;
      i = close + 1;
      expectKey = false;
    } else if (ch === '.') {
      if (expectKey) return null;
      i += 1;
      expectKey = true;
    } else {
      let end = i;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end += 1;
      if (!expectKey && segments.length > 0) return null;
      segments.push(path.slice(i, end).trim());
      i = end;
      expectKey = false;
    }
  }
  if (segments.length === 0 || expectKey) return null;
  if (segments.some((s) => s === '' || (typeof s === 'string' && forbiddenKeys.has(s)))) return null;
  return segments;
}

/** The canonical spelling of segments: keys joined by dots, indexes in brackets. */
export function formatObjectPath(segments: readonly ObjectPathSegment[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getAtPath(root: unknown, segments: readonly ObjectPathSegment[]): unknown {
  let current = root;
  for (const s of segments) {
    if (typeof s === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[s];
    } else {
      if (!isPlainObject(current) || !Object.hasOwn(current, s)) return undefined;
      current = current[s];
    }
  }
  return current;
}

/**
 * Returns a copy of `root` with `value` written at the path, creating objects (or arrays, where the
 * next segment is an index) on the way. The input is never mutated.
 */
export function setAtPath(root: unknown, segments: readonly ObjectPathSegment[], value: unknown): unknown {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [ObjectPathSegment, ...ObjectPathSegment[]];
  if (typeof head === 'number') {
    const copy = Array.isArray(root) ? [...root] : [];
    while (copy.length < head) copy.push(null);
    copy[head] = setAtPath(copy[head], rest, value);
    return copy;
  }
  const copy: Record<string, unknown> = isPlainObject(root) ? { ...root } : {};
  copy[head] = setAtPath(copy[head], rest, value);
  return copy;
}
