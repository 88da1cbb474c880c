import { execFile } from 'node:child_process';
import { glob, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/http/rest-routes.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));

type Operation = {
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  responses: Record<string, { $ref?: string; content?: unknown }>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> };
};

let t: TestApp;
let served: Doc;
beforeAll(async () => {
  t = await startTestApp({ listen: true });
  const res = await fetch(`${t.baseUrl}/api/openapi.json`);
  expect(res.status).toBe(200);
  served = (await res.json()) as Doc;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(served.paths).flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => ({ p, m, op })));

describe('the served OpenAPI document', () => {
  it('validates and dereferences with swagger-parser', async () => {
    await SwaggerParser.validate(structuredClone(served) as never);
    const deref = (await SwaggerParser.dereference(structuredClone(served) as never)) as unknown as Doc;
    expect(Object.keys(deref.paths).length).toBeGreaterThan(20);
  });

  it('lints with zero errors under redocly’s recommended rules', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(served));
      const out = await run(
        path.join(root, 'node_modules/.bin/redocly'),
        ['lint', file, '--format=json', `--config=${path.join(root, 'redocly.yaml')}`],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        },
      ).catch((e: { stdout: string }) => e);
      const report = JSON.parse(out.stdout) as { totals: { errors: number; warnings: number } };
      expect(report.totals.errors, out.stdout.slice(0, 4000)).toBe(0);
      // Each remaining warning is justified in docs/api.md ("OpenAPI lint warnings").
      expect(report.totals.warnings).toBeLessThanOrEqual(4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('has one operation per REST route, each with security, a typed answer and typed errors', () => {
    expect(operations().length).toBe(restRoutes.length);
    const json = JSON.stringify(served);
    expect(json).not.toContain('$defs');
    expect(json).not.toContain('__shared');
    for (const { p, m, op } of operations()) {
      const where = `${m.toUpperCase()} ${p}`;
      expect(op.security, where).toBeDefined();
      const success = Object.entries(op.responses).filter(([s]) => s.startsWith('2'));
      expect(success.length, where).toBeGreaterThan(0);
      for (const [status, response] of success) {
        if (status === '204') continue;
        expect(JSON.stringify(response.content), where).toMatch(
          /"data":\{"\$ref":"#\/components\/schemas\/\w+"\}/,
        );
      }
      // The health check and the sign-in page's options take no input and no credentials.
      const inputless = p === '/api/health' || p === '/api/auth/options';
      expect(Object.keys(op.responses).some((s) => s.startsWith('4')) || inputless, where).toBe(true);
    }
    expect(served.paths['/api/health']?.get?.security).toEqual([]);
    expect(served.paths['/api/users/me']?.get?.security).toEqual([{ bearer: [] }]);
  });

  it('has no hand-kept REST rows left: routes come from procedure meta (docs/api.md "Adding a procedure")', async () => {
    const leftovers: string[] = [];
    for await (const file of glob('server/src/modules/**/*.rest.ts', { cwd: root })) leftovers.push(file);
    expect(leftovers, 'convert each row to .meta({ rest }) on its procedure').toEqual([]);
  });

  it('takes path ids from the path only: no body requires them', () => {
    for (const { p, m, op } of operations()) {
      const ids = (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name);
      const ref = op.requestBody?.content['application/json'].schema.$ref;
      if (!ids.length || !ref) continue;
      const body = served.components.schemas[ref.split('/').pop()!];
      for (const id of ids) {
        expect(body?.required ?? [], `${m} ${p}`).not.toContain(id);
        expect(Object.keys(body?.properties ?? {}), `${m} ${p}`).not.toContain(id);
      }
    }
    expect(served.paths['/api/registrations/{id}']?.delete?.requestBody).toBeUndefined();
  });

  it('answers the framework’s own errors in { message, code } without echoing the request', async () => {
    const long = 'x'.repeat(10_000);
    const cases: [string, RequestInit & { path: string }, number][] = [
      ['unknown route', { path: '/api/no-such-route-zzz' }, 404],
      ['overlong path parameter', { path: `/api/registrations/${long}` }, 414],
      [
        'text/plain body',
        {
          path: '/api/auth/login',
          method: 'POST',
          body: 'zzz-plain',
          headers: { 'content-type': 'text/plain' },
        },
        415,
      ],
      [
        'form body',
        {
          path: '/api/auth/login',
          method: 'POST',
          body: 'zzz=form',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        415,
      ],
      [
        'malformed JSON',
        {
          path: '/api/auth/login',
          method: 'POST',
          body: '{"zzz',
          headers: { 'content-type': 'application/json' },
        },
        400,
      ],
    ];
    for (const [name, { path: p, ...init }, status] of cases) {
      const res = await fetch(`${t.baseUrl}${p}`, init);
      const text = await res.text();
      expect(res.status, name).toBe(status);
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(body).sort(), name).toEqual(['code', 'message']);
      expect(text, name).not.toContain('zzz');
      expect(text, name).not.toContain('xxxxxxxxxx');
    }
  });

  it('serves the reference page at /api/docs under a policy that allows only its own scripts', async () => {
    const res = await fetch(`${t.baseUrl}/api/docs/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('/api/openapi.json');
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toContain("unsafe-inline'; script");
    const script = await fetch(`${t.baseUrl}/api/docs/js/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });
});
