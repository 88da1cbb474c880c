import type { AnyProcedure } from '@trpc/server';
import fc from 'fast-check';
import { appRouter } from '../../src/http/router.ts';

/** The inner zod definition fields the key walk reads (zod 4 keeps them on `_zod.def`). */
interface ZodDefLike {
  type?: string;
  shape?: Record<string, unknown>;
  in?: unknown;
  innerType?: unknown;
  options?: unknown[];
  left?: unknown;
  right?: unknown;
}

function defOf(schema: unknown): ZodDefLike | undefined {
  return (schema as { _zod?: { def?: ZodDefLike } } | undefined)?._zod?.def;
}

/** The object keys an input schema knows, through pipes, defaults, optionals, unions and intersections. */
function schemaKeys(schema: unknown, seen = new Set<unknown>()): string[] {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return [];
  seen.add(schema);
  if (def.shape) return Object.keys(def.shape);
  const inner = [def.in, def.innerType, def.left, def.right, ...(def.options ?? [])].filter(Boolean);
  return [...new Set(inner.flatMap((s) => schemaKeys(s, seen)))];
}

const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;

/** The keys of a procedure's input (empty when it takes none or a non-object). */
export function inputKeysOf(procedure: string): string[] {
  const inputs = (procedures[procedure]?._def as { inputs?: unknown[] } | undefined)?.inputs ?? [];
  return [...new Set(inputs.flatMap((s) => schemaKeys(s)))];
}

export function takesInput(procedure: string): boolean {
  return ((procedures[procedure]?._def as { inputs?: unknown[] } | undefined)?.inputs ?? []).length > 0;
}

/**
 * Nesting `depth` levels deep. Kept as a marker and written out as text by `toJsonText`, because
 * JSON.stringify (and fast-check's printer) recurse and overflow the stack long before a parser does.
 */
export class DeepJson {
  readonly depth: number;
  readonly kind: 'array' | 'object';
  constructor(depth: number, kind: 'array' | 'object') {
    this.depth = depth;
    this.kind = kind;
  }
  text(): string {
    return this.kind === 'array'
      ? `${'['.repeat(this.depth)}0${']'.repeat(this.depth)}`
      : `${'{"a":'.repeat(this.depth)}0${'}'.repeat(this.depth)}`;
  }
  [fc.toStringMethod](): string {
    return `<${this.kind} nested ${this.depth} deep>`;
  }
}

export const deepJson = (depth: number, kind: 'array' | 'object') => new DeepJson(depth, kind);

/** JSON text of a generated payload, writing nested markers out without recursion of their own. */
export function toJsonText(value: unknown): string {
  if (value instanceof DeepJson) return value.text();
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Strings known to break naive code: NUL, lone surrogates, injection shapes, traversal, templates. */
const nastyString = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '__proto__',
  'constructor',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  '{{message}}{{registrationId}}{{metadata.timestamp}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text.
  '${process.env.JWT_SECRET}',
  '<script>alert(1)</script>',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  '\u202e\u0000\ufeff',
  '-1',
  'NaN',
  '1e309',
  '00000000-0000-0000-0000-000000000000',
  ' ',
  '',
);

const hugeString = fc
  .tuple(fc.integer({ min: 5_000, max: 400_000 }), fc.constantFrom('x', 'é', '😀', '\u0000'))
  .map(([n, ch]) => ch.repeat(n));

const oddNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, Number.MAX_SAFE_INTEGER + 2, -1, 0, 1e308, 2 ** 31, -(2 ** 63)),
);

/** A value of any JSON type, weighted toward the ones schemas reject. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: nastyString, weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 3 },
  { arbitrary: oddNumber, weight: 3 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 3 },
  { arbitrary: fc.array(nastyString, { maxLength: 5 }), weight: 1 },
  { arbitrary: hugeString, weight: 1 },
  { arbitrary: fc.integer({ min: 65, max: 3000 }).map((d) => deepJson(d, 'object')), weight: 1 },
);

/** An object with some of the schema's own keys (plus strangers) holding wrong values. */
export function shapedPayload(keys: string[]): fc.Arbitrary<Record<string, unknown>> {
  const own = keys.length ? fc.constantFrom(...keys) : fc.constant('x');
  const key = fc.oneof({ arbitrary: own, weight: 4 }, { arbitrary: fc.string({ maxLength: 20 }), weight: 1 });
  return fc.dictionary(key, wrongValue, { maxKeys: Math.max(4, keys.length + 2) });
}

/** A top-level body of any kind: random JSON, a non-object, deep nesting, or a huge document. */
export const anyBody: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  wrongValue,
  fc.integer({ min: 65, max: 100_000 }).map((d) => deepJson(d, 'array')),
  fc.integer({ min: 65, max: 20_000 }).map((d) => deepJson(d, 'object')),
);

/**
 * A path parameter: ids of the wrong shape, encoded or raw. Dot segments are left out: URL
 * normalisation turns `/x/..` into another route, which is not a malformed id.
 */
export const pathParam: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 60 }).map(encodeURIComponent),
    fc.uuid(),
    fc.constantFrom('%', '%zz', '%00', 'a'.repeat(5_000), '1', '-1', 'null', '%E2%80%AE'),
    nastyString.filter((s) => s.length > 0 && !/[\ud800-\udfff]/.test(s)).map(encodeURIComponent),
  )
  .filter((p) => !/^(\.|%2e){1,2}$/i.test(p));

/** A query string of random keys and values, with the schema's keys favoured. */
export function queryString(keys: string[]): fc.Arbitrary<string> {
  const key = keys.length
    ? fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 10 }))
    : fc.string({ maxLength: 10 });
  const value = fc.oneof(
    fc.string({ maxLength: 50 }),
    nastyString.filter((s) => !/[\ud800-\udfff]/.test(s)),
    fc.constantFrom('a'.repeat(10_000), '[]', '{}', '1e999'),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 6 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
}

/** Raw request bodies that are not well-formed JSON, with the content type each claims. */
export const rawBody: fc.Arbitrary<{ payload: string; contentType: string | undefined }> = fc.oneof(
  fc.record({
    payload: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{', '{"a":', '[1,2', 'nul', '{"__proto__":{"admin":true}}', '\u0000'),
    ),
    contentType: fc.constant('application/json'),
  }),
  fc.record({
    payload: fc.string({ maxLength: 200 }),
    contentType: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=utf-16',
      undefined,
    ),
  }),
);
