import type { AnyProcedure } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RestRoute } from './rest.ts';
import type { AppRouter } from './router.ts';
import type { ProcedureMeta } from './trpc.ts';

type JsonSchema = Record<string, unknown>;

function inputSchema(procedure: AnyProcedure | undefined): JsonSchema | undefined {
  const parser = (procedure?._def as { inputs?: unknown[] } | undefined)?.inputs?.[0];
  if (!(parser instanceof z.ZodType)) return undefined;
  try {
    return z.toJSONSchema(parser, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return undefined;
  }
}

/** An OpenAPI 3.1 document generated from the REST table and the procedures' zod input schemas. */
export function buildOpenApiDocument(appRouter: AppRouter, routes: readonly RestRoute[]) {
  const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const procedure = procedures[route.procedure];
    const access = (procedure?._def.meta as ProcedureMeta | undefined)?.access ?? 'user';
    const openPath = `/api${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
    const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const schema = inputSchema(procedure);
    const operation: Record<string, unknown> = {
      operationId: route.procedure,
      summary: route.procedure,
      tags: [route.procedure.split('.')[0]],
      'x-access': access,
      parameters: params,
      responses: {
        [String(route.status ?? 200)]: {
          description: 'Success: the answer is in `data`.',
          content: { 'application/json': { schema: { type: 'object', properties: { data: {} } } } },
        },
        '204': { description: 'Success with no content.' },
        default: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
    if (access !== 'public') operation.security = [{ bearer: [] }];
    if (schema && route.method !== 'GET') {
      operation.requestBody = { required: true, content: { 'application/json': { schema } } };
    } else if (schema && route.method === 'GET') {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      for (const [name, s] of Object.entries(props)) {
        if (!params.some((p) => p.name === name))
          params.push({ name, in: 'query', required: false, schema: s as never });
      }
    }
    paths[openPath] ??= {};
    paths[openPath][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Resort Alerts API',
      version: '1.0.0',
      description:
        'Answers are `{ "data": … }`; errors are `{ "message", "code", "issues"? }`. See docs/api.md.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['message', 'code'],
          properties: {
            message: { type: 'string' },
            code: { type: 'string' },
            issues: {
              type: 'array',
              items: {
                type: 'object',
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
    paths,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Serves the document at /api/openapi.json and a readable reference page at /api/docs. */
export function registerOpenApi(app: FastifyInstance, appRouter: AppRouter, routes: readonly RestRoute[]) {
  const doc = buildOpenApiDocument(appRouter, routes);
  app.get('/api/openapi.json', async () => doc);
  const rows = Object.entries(doc.paths)
    .flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const o = op as { summary: string; 'x-access': string; requestBody?: unknown; parameters: unknown[] };
        const body = o.requestBody ? JSON.stringify(o.requestBody, null, 2) : '';
        return `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(p)}</code></td><td>${o['x-access']}</td><td><code>${escapeHtml(o.summary)}</code>${body ? `<details><summary>input</summary><pre>${escapeHtml(body)}</pre></details>` : ''}</td></tr>`;
      }),
    )
    .join('\n');
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Resort Alerts API</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:70rem}td,th{padding:.3rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:.5rem;overflow:auto}</style></head>
<body><h1>Resort Alerts REST API</h1><p>Send <code>Authorization: Bearer &lt;accessToken&gt;</code> from <code>POST /api/auth/login</code>. Answers are <code>{"data": …}</code>; errors <code>{"message","code","issues"?}</code>. Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Access</th><th>Procedure</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
  app.get('/api/docs', async (_req, reply) => reply.type('text/html').send(page));
}
