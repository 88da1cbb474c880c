import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/http/openapi.ts';
import { restRoutes } from '../../src/http/rest-routes.ts';

/**
 * The response validator (issue [contract] acceptance 4): every answer a test gets from a REST route
 * must be one the OpenAPI document lists for that operation, and its JSON must validate against the
 * documented schema. Hooked into TestApp.request, so every REST test checks the contract as it runs.
 */
const document = buildOpenApiDocument(restRoutes) as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
  components: { responses: Record<string, Record<string, unknown>> };
};
const DOC_ID = 'https://resort-alerts.invalid/openapi.json';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...document, $id: DOC_ID });

interface Operation {
  method: string;
  pattern: RegExp;
  openPath: string;
  /** Path params first: a static segment wins, as in Fastify's router. */
  params: number;
}
const operations: Operation[] = Object.entries(document.paths)
  .flatMap(([openPath, ops]) =>
    Object.keys(ops).map((method) => ({
      method: method.toUpperCase(),
      openPath,
      pattern: new RegExp(`^${openPath.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
      params: (openPath.match(/\{/g) ?? []).length,
    })),
  )
  .sort((a, b) => a.params - b.params);

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
const validators = new Map<string, ValidateFunction>();

function validatorFor(ref: string): ValidateFunction {
  let v = validators.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: `${DOC_ID}#/${ref}` });
    validators.set(ref, v);
  }
  return v;
}

const errorValidator = () => validatorFor('components/schemas/Error');

/** Throws when the answer is not one the document describes for this method and URL. */
export function checkAnswerAgainstDocument(
  method: string,
  url: string,
  answer: { statusCode: number; body: string; headers: Record<string, unknown> },
): void {
  const path = url.split('?')[0] ?? '';
  if (!path.startsWith('/api/') || path === '/api/openapi.json' || path.startsWith('/api/docs')) return;
  const op = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  const isJson = String(answer.headers['content-type'] ?? '').includes('application/json');
  const fail: (why: string) => never = (why) => {
    throw new Error(
      `${method} ${url} → ${answer.statusCode} breaks the API document: ${why}\n${answer.body.slice(0, 500)}`,
    );
  };
  if (!op) {
    // No operation: the framework's own answer (404, 405, 414, 415 …) still has the error shape.
    if (answer.statusCode < 400) fail('an answer from a route the document does not list');
    if (!isJson || !errorValidator()(JSON.parse(answer.body))) fail('not the { message, code } error body');
    return;
  }
  const documented = document.paths[op.openPath]![op.method.toLowerCase()]!.responses;
  let response = documented[String(answer.statusCode)];
  if (!response) fail(`status not documented (documented: ${Object.keys(documented).join(', ')})`);
  let base = pointer('paths', op.openPath, op.method.toLowerCase(), 'responses', String(answer.statusCode));
  const responseRef = response.$ref as string | undefined;
  if (responseRef) {
    const name = responseRef.split('/').pop()!;
    response = document.components.responses[name]!;
    base = pointer('components', 'responses', name);
  }
  if (!response.content) {
    if (answer.body !== '') fail('a body where the document says no content');
    return;
  }
  if (!isJson) fail('not JSON');
  const validate = validatorFor(`${base}/content/${pointer('application/json')}/schema`);
  if (!validate(JSON.parse(answer.body))) fail(ajv.errorsText(validate.errors, { separator: '; ' }));
}
