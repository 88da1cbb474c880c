/**
 * The one path language of the product: dot and bracket notation into JSON values,
 * e.g. `party.adults`, `rooms[0].price`, `offers[0]["room type"]`. One scanner reads every path;
 * two readers give it meaning:
 * - rule paths (`parsePath`, `selectPath`) read leniently and add `*` over array items or object
 *   values (`rooms[*].price`, `rooms.*.price`, `rooms[]`) and a leading `$` naming the root, so `$`
 *   alone selects the whole answer;
 * - editable-field paths (`parseObjectPath`), which the request builder writes through, are the
 *   strictly formed subset: plain keys, quoted keys and array indexes, no wildcards, nothing that
 *   would reach the object prototype, indexes up to 1000.
 */

/** One step of a path as written: a bare name, a bracket's content, or an unclosed bracket's rest. */
type Token =
  | { kind: 'dot' }
  | { kind: 'name'; text: string }
  | { kind: 'bracket'; inner: string }
  | { kind: 'unclosed'; rest: string };

const quotedKey = /^(['"])(.*)\1$/s;

/** The closing bracket of the bracket opened at `open`; a quoted key may itself hold `]`. */
function findClose(path: string, open: number): number {
  const quote = path[open + 1];
  if (quote === '"' || quote === "'") {
    const end = path.indexOf(quote, open + 2);
    return end < 0 ? -1 : path.indexOf(']', end);
  }
  return path.indexOf(']', open);
}

function scan(path: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < path.length) {
    const ch = path[i];
    if (ch === '.') {
      tokens.push({ kind: 'dot' });
      i += 1;
    } else if (ch === '[') {
      const close = findClose(path, i);
      if (close < 0) {
        tokens.push({ kind: 'unclosed', rest: path.slice(i) });
        break;
      }
      tokens.push({ kind: 'bracket', inner: path.slice(i + 1, close).trim() });
      i = close + 1;
    } else {
      let end = i;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end += 1;
      tokens.push({ kind: 'name', text: path.slice(i, end) });
      i = end;
    }
  }
  return tokens;
}

// ---- Rule paths -------------------------------------------------------------------------------

export type PathSegment = { kind: 'key'; key: string } | { kind: 'wildcard' };

const parsed = new Map<string, PathSegment[]>();
const CACHE_LIMIT = 5000;

/** Lenient: empty steps are skipped, and an unclosed bracket is read as part of a plain key. */
function parseRulePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const token of scan(path.startsWith('$') ? path.slice(1) : path)) {
    if (token.kind === 'name') {
      if (token.text === '*') segments.push({ kind: 'wildcard' });
      else if (token.text !== '') segments.push({ kind: 'key', key: token.text });
    } else if (token.kind === 'bracket') {
      const quoted = quotedKey.exec(token.inner);
      if (token.inner === '' || token.inner === '*') segments.push({ kind: 'wildcard' });
      else segments.push({ kind: 'key', key: quoted ? quoted[2]! : token.inner });
    } else if (token.kind === 'unclosed') {
      segments.push({ kind: 'key', key: token.rest });
    }
  }
  return segments;
}

export function parsePath(path: string): PathSegment[] {
  let segments = parsed.get(path);
  if (!segments) {
    segments = parseRulePath(path.trim());
    if (parsed.size >= CACHE_LIMIT) parsed.clear();
    parsed.set(path, segments);
  }
  return segments;
}

export function pathHasWildcard(path: string): boolean {
  return parsePath(path).some((s) => s.kind === 'wildcard');
}

function step(value: unknown, segment: PathSegment, out: unknown[]): void {
  if (value === null || typeof value !== 'object') return;
  if (segment.kind === 'wildcard') {
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
      if (item !== undefined) out.push(item);
    }
    return;
  }
  if (Array.isArray(value)) {
    if (!/^\d+$/.test(segment.key)) return;
    const index = Number(segment.key);
    if (index < value.length && value[index] !== undefined) out.push(value[index]);
    return;
  }
  const found = Object.hasOwn(value, segment.key)
    ? (value as Record<string, unknown>)[segment.key]
    : undefined;
  if (found !== undefined) out.push(found);
}

/** Every value the path selects; missing steps select nothing (so a plain path gives zero or one value). */
export function selectPath(data: unknown, path: string): unknown[] {
  let current: unknown[] = [data];
  for (const segment of parsePath(path)) {
    const next: unknown[] = [];
    for (const value of current) step(value, segment, next);
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

/**
 * Whether the answer has the place a path reads: its part before the first wildcard (or list index)
 * selects something (an empty list there is present: "no rooms"). A path without either must select.
 */
export function pathPresent(data: unknown, path: string): boolean {
  let current: unknown[] = [data];
  for (const segment of parsePath(path)) {
    if (segment.kind === 'wildcard') return current.some((v) => v !== null && typeof v === 'object');
    // An index past the end of a list that is there is "no such item", not a missing place.
    if (/^\d+$/.test(segment.key) && current.some(Array.isArray)) return true;
    const next: unknown[] = [];
    for (const value of current) step(value, segment, next);
    current = next;
    if (current.length === 0) return false;
  }
  return true;
}

// ---- Editable-field paths -----------------------------------------------------------------------

export type ObjectPathSegment = string | number;

// Writing through these would reach Object.prototype instead of the request body.
const forbiddenKeys = new Set(['__proto__', 'prototype', 'constructor']);
// A path may not make the builder allocate a huge array.
const maxIndex = 1000;

/**
 * Splits an editable field's path into keys and array indexes; null for a path not strictly formed
 * (an empty step, a name straight after a bracket, a bracket holding neither a quoted key nor an
 * index, an unclosed bracket) or one that would reach the object prototype.
 */
export function parseObjectPath(path: string): ObjectPathSegment[] | null {
  const segments: ObjectPathSegment[] = [];
  let expectKey = true;
  for (const token of scan(path)) {
    if (token.kind === 'dot') {
      if (expectKey) return null;
      expectKey = true;
    } else if (token.kind === 'name') {
      if (!expectKey && segments.length > 0) return null;
      segments.push(token.text.trim());
      expectKey = false;
    } else if (token.kind === 'bracket') {
      const quoted = quotedKey.exec(token.inner);
      if (quoted) segments.push(quoted[2]!);
      else if (/^\d+$/.test(token.inner) && Number(token.inner) <= maxIndex)
        segments.push(Number(token.inner));
      else return null;
      expectKey = false;
    } else {
      return null;
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
/** A selected value and the record it belongs to: the object holding its last key. */
export interface PathEntry {
  value: unknown;
  record: Record<string, unknown> | null;
  /** The key of the list (or object) the record was taken from by a wildcard, e.g. "rooms". */
  listKey: string | null;
}

/** Like `selectPath`, keeping for each value the object it was read from (for describing matches). */
export function selectPathEntries(data: unknown, path: string): PathEntry[] {
  let current: PathEntry[] = [{ value: data, record: null, listKey: null }];
  let lastKey: string | null = null;
  for (const segment of parsePath(path)) {
    const next: PathEntry[] = [];
    for (const entry of current) {
      const out: unknown[] = [];
      step(entry.value, segment, out);
      const holder =
        entry.value && typeof entry.value === 'object' && !Array.isArray(entry.value)
          ? (entry.value as Record<string, unknown>)
          : entry.record;
      const listKey = segment.kind === 'wildcard' ? lastKey : entry.listKey;
      for (const value of out) next.push({ value, record: holder, listKey });
    }
    if (segment.kind === 'key') lastKey = segment.key;
    current = next;
    if (current.length === 0) break;
  }
  return current;
}
