import { type ApiSchemaMeta, apiSchemas } from '@resort/shared';
import { z } from 'zod';
import type { DerivedRestRoute } from './rest-routes.ts';

type JsonSchema = Record<string, unknown>;
type Registry = ReturnType<typeof z.registry<ApiSchemaMeta>>;

const COMPONENTS = '#/components/schemas/';

/** Error statuses a route can answer, each with the shared error body. */
const errorResponses: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'The input broke a rule: `issues` lists each one.' },
  401: { name: 'Unauthorized', description: 'No bearer token, or one that is expired, revoked or invalid.' },
  403: {
    name: 'Forbidden',
    description: 'Signed in, but the role or the API token scope does not allow it.',
  },
  404: { name: 'NotFound', description: 'Missing, or not the caller’s (the two look the same).' },
  409: { name: 'Conflict', description: 'The write collides with existing state.' },
  413: { name: 'PayloadTooLarge', description: 'The request body is larger than the server accepts.' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not `application/json`.' },
  422: { name: 'Unprocessable', description: 'Well-formed, but the server cannot act on it.' },
  429: {
    name: 'TooManyRequests',
    description: 'Rate limited: wait `retryAfterSeconds` (also the `Retry-After` header).',
  },
  502: { name: 'BadGateway', description: 'An upstream the server called failed.' },
  500: { name: 'InternalError', description: 'A fault on the server’s side: nothing about it is shown.' },
};

const pascal = (procedure: string) =>
  procedure
    .split('.')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');

const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);

const isZod = (s: unknown): s is z.ZodType => s instanceof z.ZodType;
const isVoid = (s: unknown) => s instanceof z.ZodVoid || s instanceof z.ZodUndefined;

/** The input without the fields its path carries: path ids are taken from the path only. */
function withoutFields(schema: z.ZodType, names: string[]): z.ZodType | null {
  if (!names.length) return schema;
  if (schema instanceof z.ZodOptional) return withoutFields(schema.unwrap() as z.ZodType, names);
  if (schema instanceof z.ZodObject) {
    const shape = { ...(schema.shape as Record<string, z.ZodType>) };
    for (const n of names) delete shape[n];
    if (!Object.keys(shape).length) return null;
    const catchall = schema._zod.def.catchall;
    return catchall ? z.object(shape).catchall(catchall as z.ZodType) : z.object(shape);
  }
  if (schema instanceof z.ZodIntersection) {
    const left = withoutFields(schema._zod.def.left as z.ZodType, names);
    const right = withoutFields(schema._zod.def.right as z.ZodType, names);
    if (left && right) return z.intersection(left, right);
    return left ?? right;
  }
  return schema;
}

/** Replaces every `$ref` through `map`, in place. */
function mapRefs(node: unknown, map: (ref: string) => string): void {
  if (Array.isArray(node)) {
    for (const item of node) mapRefs(item, map);
  } else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (typeof o.$ref === 'string') o.$ref = map(o.$ref);
    for (const v of Object.values(o)) mapRefs(v, map);
  }
}

function collectRefs(node: unknown, into: Set<string>): void {
  mapRefs(node, (ref) => {
    into.add(ref);
    return ref;
  });
}

/**
 * On the input side a `default` is said in words: generators (openapi-typescript) read `default` as
 * "always present" in a named schema, which is true of an answer but not of what a caller sends.
 */
function describeDefaults(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) describeDefaults(item);
  } else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if ('default' in o) {
      const said = `Default: \`${JSON.stringify(o.default)}\`.`;
      o.description = typeof o.description === 'string' ? `${o.description} ${said}` : said;
      delete o.default;
    }
    for (const v of Object.values(o)) describeDefaults(v);
  }
}

/** zod → JSON Schema for a whole registry; each registered schema becomes one component. */
function convert(registry: Registry, io: 'input' | 'output', nameOf: (id: string) => string) {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (id) => `${COMPONENTS}${nameOf(id)}`,
    // An unknown/any field may be undefined, and JSON drops an undefined field: never required.
    override: ({ zodSchema, jsonSchema }) => {
      if (!(zodSchema instanceof z.ZodObject) || !Array.isArray(jsonSchema.required)) return;
      const shape = zodSchema.shape as Record<string, z.ZodType>;
      jsonSchema.required = jsonSchema.required.filter(
        (key) => !(shape[key] instanceof z.ZodUnknown || shape[key] instanceof z.ZodAny),
      );
      if (!jsonSchema.required.length) delete jsonSchema.required;
    },
  }) as { schemas: Record<string, JsonSchema> };
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const meta = registry.get(registry._idmap.get(id)!);
    if (meta?.anyJson) {
      out[nameOf(id)] = { description: meta.description };
      continue;
    }
    const { $schema: _s, id: _id, $id: _i, $defs, anyJson: _a, ...rest } = schema;
    // Anonymous recursive schemas land in `$defs` of a shared entry: lift each into a component.
    for (const [defName, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      out[`${nameOf(id)}_${defName}`] = def;
    }
    out[nameOf(id)] = rest;
  }
  const all = Object.values(out);
  if (io === 'input') describeDefaults(all);
  mapRefs(all, (ref) => {
    const m = /^#\/components\/schemas\/([^#]+)#\/\$defs\/(.+)$/.exec(ref);
    return m ? `${COMPONENTS}${m[1]}_${m[2]}` : ref;
  });
  return out;
}

function copyShared(): Registry {
  const registry = z.registry<ApiSchemaMeta>();
  for (const schema of apiSchemas._idmap.values()) {
    const meta = apiSchemas.get(schema);
    if (meta) registry.add(schema, meta);
  }
  return registry;
}

interface OperationSchemas {
  body?: string;
  query?: string;
  output?: string;
}

/**
 * Component schemas for every route: answers (io output) and request bodies/queries (io input).
 * A named schema whose input and output JSON agree is one component; otherwise the input side is
 * `<Name>Input`.
 */
function buildComponents(routes: readonly DerivedRestRoute[]) {
  const outReg = copyShared();
  const inReg = copyShared();
  const shared = new Set(apiSchemas._idmap.keys());
  const ops = new Map<string, OperationSchemas>();
  for (const route of routes) {
    const op: OperationSchemas = {};
    const name = pascal(route.operation);
    if (isZod(route.output) && !isVoid(route.output)) {
      op.output = outReg.get(route.output)?.id ?? `${name}Output`;
      if (!outReg.has(route.output)) outReg.add(route.output, { id: op.output });
    }
    if (isZod(route.input)) {
      const rest = withoutFields(route.input, pathParams(route.path));
      if (rest) {
        const unwrapped = rest instanceof z.ZodOptional ? (rest.unwrap() as z.ZodType) : rest;
        const existing = inReg.get(unwrapped)?.id;
        const id = existing ?? `${name}${route.method === 'GET' ? 'Query' : 'Body'}`;
        if (!existing) inReg.add(unwrapped, { id });
        if (route.method === 'GET') op.query = id;
        else op.body = id;
      }
    }
    ops.set(route.procedure, op);
  }
  const outputs = convert(outReg, 'output', (id) => id);
  // Input-side names: `<Name>Input` for a named answer schema, the name itself for input-only ones.
  const inputNameOf = (id: string) => (shared.has(id) && !id.endsWith('Input') ? `${id}Input` : id);
  const inputs = convert(inReg, 'input', inputNameOf);

  // One component where input and output agree (after the agreeing ones are merged themselves).
  const merged = new Set<string>();
  const unify = (ref: string) => {
    const n = ref.slice(COMPONENTS.length);
    return n.endsWith('Input') && merged.has(n.slice(0, -5)) ? `${COMPONENTS}${n.slice(0, -5)}` : ref;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const id of shared) {
      if (merged.has(id) || inputNameOf(id) === id || !inputs[`${id}Input`] || !outputs[id]) continue;
      const candidate = structuredClone(inputs[`${id}Input`]);
      const self = `${COMPONENTS}${id}Input`;
      mapRefs(candidate, (r) => (r === self ? `${COMPONENTS}${id}` : unify(r)));
      if (JSON.stringify(candidate) === JSON.stringify(outputs[id])) {
        merged.add(id);
        changed = true;
      }
    }
  }
  const components: Record<string, JsonSchema> = { ...outputs };
  for (const [name, schema] of Object.entries(inputs)) {
    if (name.endsWith('Input') && merged.has(name.slice(0, -5))) continue;
    mapRefs(schema, unify);
    components[name] = schema;
  }
  const inputName = (id: string) => unify(`${COMPONENTS}${inputNameOf(id)}`).slice(COMPONENTS.length);
  for (const op of ops.values()) {
    if (op.body) op.body = inputName(op.body);
    if (op.query) op.query = inputName(op.query);
  }
  return { components, ops };
}

const ref = (name: string) => ({ $ref: `${COMPONENTS}${name}` });

function errorStatuses(route: DerivedRestRoute, op: OperationSchemas): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  const params = pathParams(route.path);
  if (op.body || op.query || params.length) statuses.add(400);
  if (op.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.method !== 'GET' && !op.body) statuses.add(400); // malformed JSON in a sent body
  if (route.access !== 'public') {
    statuses.add(401);
    statuses.add(429);
    // The admin rung, a read-only token on a write, or a token on a session-only procedure.
    statuses.add(403);
  }
  if (params.length) statuses.add(404);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

/** An OpenAPI 3.1 document derived from the procedures' REST meta and their zod input/output schemas. */
export function buildOpenApiDocument(routes: readonly DerivedRestRoute[]) {
  const { components, ops } = buildComponents(routes);
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const op = ops.get(route.procedure)!;
    const openPath = `/api${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
    const tag = route.operation.split('.')[0]!;
    tags.add(tag);
    const parameters: Record<string, unknown>[] = pathParams(route.path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (op.query) {
      const query = components[op.query] ?? {};
      const required = new Set((query.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, JsonSchema>)) {
        parameters.push({ name, in: 'query', required: required.has(name), schema });
      }
      delete components[op.query];
    }
    const responses: Record<string, unknown> = {};
    const successes = [route.status ?? 200, ...(route.statuses ?? [])];
    for (const status of successes) {
      responses[String(status)] = op.output
        ? {
            description: status >= 400 ? 'Not ready: the same report.' : 'Success: the answer is in `data`.',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['data'], properties: { data: ref(op.output) } },
              },
            },
          }
        : { description: 'Success: no content.' };
    }
    if (!op.output && successes.every((s) => s !== 204)) {
      delete responses[String(route.status ?? 200)];
      responses['204'] = { description: 'Success: no content.' };
    }
    for (const status of errorStatuses(route, op)) {
      responses[String(status)] = { $ref: `#/components/responses/${errorResponses[status]!.name}` };
    }
    const operation: Record<string, unknown> = {
      operationId: route.operation,
      summary: route.summary ?? route.operation,
      description: `Procedure \`${route.operation}\` (${route.procedureType}); access: ${route.access}.`,
      tags: [tag],
      'x-access': route.access,
      security: route.access === 'public' ? [] : [{ bearer: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(op.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } }
        : {}),
      responses,
    };
    paths[openPath] ??= {};
    paths[openPath][route.method.toLowerCase()] = operation;
  }

  const used = new Set(JSON.stringify(paths).match(/#\/components\/responses\/\w+/g) ?? []);
  const responses = Object.fromEntries(
    Object.values(errorResponses)
      .filter(({ name }) => used.has(`#/components/responses/${name}`))
      .map(({ name, description }) => [
        name,
        { description, content: { 'application/json': { schema: ref('Error') } } },
      ]),
  );
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Resort Alerts API',
      version: '1.0.0',
      description:
        'Every answer is `{ "data": … }` (204 when there is nothing to say); every error is ' +
        '`{ "message", "code", "issues"? }`. Authenticate with `Authorization: Bearer <token>`: a ' +
        'personal API token from Settings (`ra_pat_…`) or an access token from `POST /api/auth/login`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...tags].sort().map((name) => ({ name, description: `Procedures of the ${name} module.` })),
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API token (`ra_pat_…`) or a session access token (JWT).',
        },
      },
      schemas: components,
      responses,
    },
    paths,
  };
  pruneUnused(document.components.schemas, { paths, responses });
  return document;
}

/** Drops the components nothing reaches (redocly's no-unused-components). */
function pruneUnused(schemas: Record<string, JsonSchema>, roots: unknown): void {
  const reached = new Set<string>();
  const queue: unknown[] = [roots];
  while (queue.length) {
    const refs = new Set<string>();
    collectRefs(queue.pop(), refs);
    for (const r of refs) {
      const name = r.startsWith(COMPONENTS) ? r.slice(COMPONENTS.length) : null;
      if (name && !reached.has(name) && schemas[name]) {
        reached.add(name);
        queue.push(schemas[name]);
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}
