/**
 * The rule path language (DESIGN.md §7): dot and bracket notation with `*` over array items, e.g.
 * `rooms[*].price`, `rooms.*.price`, `offers[0]["room type"]`. A leading `$` names the root, so `$`
 * alone selects the whole answer. `*` also walks the values of an object.
 */
export type PathSegment = { kind: 'key'; key: string } | { kind: 'wildcard' };

const parsed = new Map<string, PathSegment[]>();
const CACHE_LIMIT = 5000;

function parse(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let i = path.startsWith('$') ? 1 : 0;
  let key = '';
  const flush = () => {
    if (key === '*') segments.push({ kind: 'wildcard' });
    else if (key !== '') segments.push({ kind: 'key', key });
    key = '';
  };
  while (i < path.length) {
    const ch = path[i]!;
    if (ch === '.') {
      flush();
      i++;
    } else if (ch === '[') {
      flush();
      const close = findClose(path, i);
      if (close < 0) {
        // An unclosed bracket is read as part of a plain key rather than rejected.
        key = path.slice(i);
        i = path.length;
        continue;
      }
      const inner = path.slice(i + 1, close).trim();
      if (inner === '' || inner === '*') segments.push({ kind: 'wildcard' });
      else if (/^(['"]).*\1$/s.test(inner)) segments.push({ kind: 'key', key: inner.slice(1, -1) });
      else segments.push({ kind: 'key', key: inner });
      i = close + 1;
    } else {
      key += ch;
      i++;
    }
  }
  flush();
  return segments;
}

function findClose(path: string, open: number): number {
  const quote = path[open + 1];
  if (quote === '"' || quote === "'") {
    const end = path.indexOf(quote, open + 2);
    return end < 0 ? -1 : path.indexOf(']', end);
  }
  return path.indexOf(']', open);
}

export function parsePath(path: string): PathSegment[] {
  let segments = parsed.get(path);
  if (!segments) {
    segments = parse(path.trim());
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
