import {
  type EditableField,
  type FieldRef,
  type FieldTarget,
  isRepeatable,
  type Overrides,
} from './editable-field.schema.ts';
import { getAtPath, isPlainObject, parseObjectPath, setAtPath } from './json-path.ts';
import type { HttpMethod } from './template.schema.ts';

/**
 * The one request builder: template defaults, then the alert's custom
 * headers/query/body, then override values written at each editable field's target and path.
 * The template live test, the alert test and the poller all call it, so a test shows exactly what
 * the poller sends.
 */
export type QueryValue = string | number | boolean;

export interface RequestTemplate {
  targetUrl: string;
  method: HttpMethod;
  defaultHeaders?: Record<string, string>;
  defaultQuery?: Record<string, QueryValue>;
  defaultBody?: unknown;
  editableFields?: EditableField[];
}

export interface RequestCustomisation {
  customHeaders?: Record<string, string>;
  customQuery?: Record<string, QueryValue>;
  customBody?: unknown;
  overrides?: Overrides;
}

export interface BuiltRequest {
  /** The target URL with the query merged in. */
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  query: Record<string, QueryValue>;
  /** undefined for none. */
  body: unknown;
}

/** A repeatable field never grows past this many entries, whatever its count field says. */
export const maxRepeatCount = 100;

const overrideBucket = { BODY: 'body', QUERY: 'query', HEADERS: 'headers' } as const satisfies Record<
  FieldTarget,
  keyof Overrides
>;

interface Draft {
  headers: Map<string, [name: string, value: string]>;
  query: Record<string, QueryValue>;
  body: unknown;
}

export function buildRequest(
  template: RequestTemplate,
  customisation: RequestCustomisation = {},
): BuiltRequest {
  const draft: Draft = {
    headers: new Map(),
    query: { ...template.defaultQuery, ...customisation.customQuery },
    body: mergeBodies(template.defaultBody, customisation.customBody),
  };
  for (const source of [template.defaultHeaders, customisation.customHeaders]) {
    for (const [name, value] of Object.entries(source ?? {})) setHeader(draft, name, value);
  }

  const fields = template.editableFields ?? [];
  const overrides = customisation.overrides ?? {};
  // Plain fields first, so a repeatable field sizes itself by its count field's final value.
  const ordered = [...fields.filter((f) => !isRepeatable(f)), ...fields.filter((f) => isRepeatable(f))];
  for (const field of ordered) {
    const bucket = overrides[overrideBucket[field.target]];
    // Only a template's editable fields can be overridden: other keys are ignored.
    if (!bucket || !Object.hasOwn(bucket, field.path)) continue;
    let value = coerceValue(field, bucket[field.path]);
    if (isRepeatable(field)) {
      const count = field.options.repeatCountField
        ? readCount(draft, field.options.repeatCountField)
        : undefined;
      value = sizeRepeatable(field, value, count);
    }
    writeValue(draft, field.target, field.path, value);
  }

  const headers: Record<string, string> = {};
  for (const [name, value] of draft.headers.values()) headers[name] = value;
  const url = new URL(template.targetUrl);
  for (const [key, value] of Object.entries(draft.query)) url.searchParams.set(key, String(value));
  // A GET carries no body (fetch and most servers refuse one).
  const body = template.method === 'GET' || draft.body === null ? undefined : draft.body;
  return { url: url.toString(), method: template.method, headers, query: draft.query, body };
}

/**
 * Override values from each editable field's default value: what the alert form starts with, and
 * what the template live test sends.
 */
export function defaultOverrides(fields: readonly EditableField[]): Overrides {
  const overrides: Overrides = {};
  for (const field of fields) {
    if (field.defaultValue === undefined) continue;
    const key = overrideBucket[field.target];
    overrides[key] = { ...overrides[key], [field.path]: field.defaultValue };
  }
  return overrides;
}

/**
 * A canonical, order-independent key of a built request: two alerts whose requests are the same
 * (header case, header order, query order and body key order aside) share one upstream fetch.
 */
export function requestKey(req: BuiltRequest): string {
  const url = new URL(req.url);
  url.searchParams.sort();
  const headers = Object.entries(req.headers)
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([req.method, url.toString(), headers, canonical(req.body) ?? null]);
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  }
  return value;
}

/** Objects merge key by key (custom wins, recursively); anything else is replaced by the custom value. */
function mergeBodies(base: unknown, custom: unknown): unknown {
  if (custom === undefined || custom === null) return base;
  if (isPlainObject(base) && isPlainObject(custom)) {
    const merged: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(custom)) merged[key] = mergeBodies(base[key], value);
    return merged;
  }
  return custom;
}

function setHeader(draft: Draft, name: string, value: string | null): void {
  const key = name.trim().toLowerCase();
  if (!key) return;
  if (value === null) draft.headers.delete(key);
  else draft.headers.set(key, [name.trim(), value]);
}

type Scalar = string | number | boolean | null;

/** NUMBER and BOOLEAN fields send typed JSON values even when the form handed over text. */
function coerceScalar(field: EditableField, value: Scalar): Scalar {
  if (typeof value !== 'string') return value;
  if (field.fieldType === 'NUMBER' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  if (field.fieldType === 'BOOLEAN' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function coerceValue(field: EditableField, value: Scalar | Scalar[] | undefined): Scalar | Scalar[] {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.map((v) => coerceScalar(field, v)) : coerceScalar(field, value);
}

function readCount(draft: Draft, ref: FieldRef): number | undefined {
  let raw: unknown;
  if (ref.target === 'QUERY') raw = draft.query[ref.path];
  else if (ref.target === 'HEADERS') raw = draft.headers.get(ref.path.toLowerCase())?.[1];
  else {
    const segments = parseObjectPath(ref.path);
    raw = segments ? getAtPath(draft.body, segments) : undefined;
  }
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n)) return undefined;
  return Math.min(maxRepeatCount, Math.max(0, Math.floor(n)));
}

/**
 * A repeatable field's value is a list with one entry per counted item (one age per child):
 * longer lists are cut, shorter ones padded with the field's default value, and a single value
 * is repeated.
 */
function sizeRepeatable(field: EditableField, value: Scalar | Scalar[], count: number | undefined): Scalar[] {
  const fallback: Scalar =
    field.defaultValue !== undefined && !Array.isArray(field.defaultValue) ? field.defaultValue : null;
  if (value === null) value = [];
  if (!Array.isArray(value)) {
    const single = value;
    return count === undefined ? [single] : Array.from({ length: count }, () => single);
  }
  const list = value.slice(0, count === undefined ? maxRepeatCount : count);
  while (count !== undefined && list.length < count) list.push(fallback);
  return list;
}

function writeValue(draft: Draft, target: FieldTarget, path: string, value: Scalar | Scalar[]): void {
  if (target === 'BODY') {
    const segments = parseObjectPath(path);
    if (segments) draft.body = setAtPath(draft.body ?? undefined, segments, value);
    return;
  }
  const flat = Array.isArray(value)
    ? value
        .filter((v) => v !== null)
        .map(String)
        .join(target === 'HEADERS' ? ', ' : ',')
    : value;
  if (target === 'HEADERS') {
    setHeader(draft, path, flat === null ? null : String(flat));
    return;
  }
  if (flat === null) delete draft.query[path];
  else draft.query[path] = flat;
}
