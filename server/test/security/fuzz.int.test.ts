import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestRoute } from '../../src/http/rest.ts';
import { restRoutes } from '../../src/http/rest-routes.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { allProcedurePaths, procedureType } from '../helpers/routes.ts';
import {
  anyBody,
  deepJson,
  inputKeysOf,
  pathParam,
  queryString,
  rawBody,
  shapedPayload,
  takesInput,
  toJsonText,
} from './fuzz-arbitraries.ts';

/**
 * Property-based fuzzing of every REST route (and every procedure over tRPC): random, schema-violating,
 * deeply nested, huge and wrongly typed payloads are answered below 500, every refusal carries a
 * message, and the process keeps serving. FUZZ_RUNS raises the number of cases per property.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 20);
const params = { numRuns: runs, endOnFailure: true } as const;

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ boss: true });
  admin = await createUser(t, { role: 'super_admin' });
});
afterAll(() => t.close());

/** Below 500; a refusal is JSON with a message and a code, and never shows internals. */
function expectSane(res: LightMyRequestResponse, what: string, surface: 'rest' | 'trpc' = 'rest') {
  const shown = `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, shown).toBeLessThan(500);
  expect(res.body, shown).not.toMatch(/\n\s+at |node_modules|\/src\//);
  if (res.statusCode < 400) return;
  const body = JSON.parse(res.body) as Record<string, unknown>;
  // Errors Fastify raises before tRPC runs (size, parsing) come in the REST shape on both surfaces.
  const error = (surface === 'trpc' && body.error ? body.error : body) as {
    message?: unknown;
    code?: unknown;
  };
  expect(error.message, shown).toEqual(expect.any(String));
  expect((error.message as string).length, shown).toBeGreaterThan(0);
  expect(error.code, shown).toBeDefined();
}

function urlFor(route: RestRoute, param: () => string): string {
  return `/api${route.path.replace(/:[A-Za-z]+/g, param)}`;
}

const sampleId = '00000000-0000-4000-8000-000000000000';
const hasBody = (route: RestRoute) => route.method !== 'GET' && route.method !== 'DELETE';
const rows = restRoutes.map((r) => [`${r.method} /api${r.path}`, r] as const);

describe('REST fuzzing (as super_admin, past every guard)', () => {
  it.each(rows)('%s: random and schema-violating input', async (name, route) => {
    const keys = inputKeysOf(route.procedure);
    const body = fc.oneof(shapedPayload(keys), anyBody);
    await fc.assert(
      fc.asyncProperty(body, queryString(keys), async (payload, qs) => {
        const res = await t.app.inject({
          method: route.method,
          url: `${urlFor(route, () => sampleId)}${qs ? `?${qs}` : ''}`,
          headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
          ...(hasBody(route) ? { payload: toJsonText(payload) } : {}),
        });
        expectSane(res, name);
      }),
      params,
    );
  });

  it.each(rows.filter(([, r]) => r.path.includes(':')))(
    '%s: malformed path parameters',
    async (name, route) => {
      await fc.assert(
        fc.asyncProperty(pathParam, async (param) => {
          const res = await t.app.inject({
            method: route.method,
            url: urlFor(route, () => param),
            headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
            ...(hasBody(route) ? { payload: '{}' } : {}),
          });
          expectSane(res, `${name} with ${param.slice(0, 60)}`);
          expect(res.statusCode, name).toBeGreaterThanOrEqual(400);
        }),
        params,
      );
    },
  );

  it.each(rows.filter(([, r]) => hasBody(r)))(
    '%s: malformed bodies and content types',
    async (name, route) => {
      await fc.assert(
        fc.asyncProperty(rawBody, async ({ payload, contentType }) => {
          const res = await t.app.inject({
            method: route.method,
            url: urlFor(route, () => sampleId),
            headers: {
              authorization: `Bearer ${admin.token}`,
              ...(contentType ? { 'content-type': contentType } : {}),
            },
            payload,
          });
          expectSane(res, `${name} with ${contentType}: ${payload.slice(0, 60)}`);
        }),
        params,
      );
    },
  );

  it.each(rows.filter(([, r]) => hasBody(r)))(
    '%s: deep nesting and oversized bodies are refused',
    async (name, route) => {
      const url = urlFor(route, () => sampleId);
      const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
      for (const payload of [
        deepJson(10_000, 'array'),
        deepJson(5_000, 'object'),
        { name: deepJson(500, 'object') },
      ]) {
        const res = await t.app.inject({ method: route.method, url, headers, payload: toJsonText(payload) });
        expectSane(res, name);
        expect(res.statusCode, name).toBe(400);
      }
      const huge = JSON.stringify({ text: 'x'.repeat(t.config.BODY_LIMIT_BYTES + 10) });
      const res = await t.app.inject({ method: route.method, url, headers, payload: huge });
      expectSane(res, name);
      expect(res.statusCode, name).toBe(413);
    },
  );
});

describe('REST fuzzing, signed out', () => {
  it.each(rows)('%s', async (name, route) => {
    const keys = inputKeysOf(route.procedure);
    await fc.assert(
      fc.asyncProperty(shapedPayload(keys), async (payload) => {
        const res = await t.app.inject({
          method: route.method,
          url: urlFor(route, () => sampleId),
          headers: { 'content-type': 'application/json' },
          ...(hasBody(route) ? { payload: toJsonText(payload) } : {}),
        });
        expectSane(res, name);
      }),
      { ...params, numRuns: Math.max(5, Math.round(runs / 4)) },
    );
  });
});

// Subscriptions are streams: their input errors travel inside the event stream of a 200 answer, so
// the HTTP-level checks here do not apply (test/live/live-events.int.test.ts covers who may open one).
const fuzzedProcedures = allProcedurePaths().filter((p) => procedureType(p) !== 'subscription');

describe('tRPC fuzzing (as super_admin)', () => {
  it.each(fuzzedProcedures.map((p) => [p] as const))('%s', async (path) => {
    const keys = inputKeysOf(path);
    const query = procedureType(path) === 'query';
    await fc.assert(
      fc.asyncProperty(fc.oneof(shapedPayload(keys), anyBody), async (payload) => {
        const json = toJsonText(payload);
        // A query's input travels in the URL, which the server caps far below the body limit.
        if (query && json.length > 8_000) return;
        const res = await t.app.inject({
          method: query ? 'GET' : 'POST',
          url: query ? `/trpc/${path}?input=${encodeURIComponent(json)}` : `/trpc/${path}`,
          headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
          ...(query ? {} : { payload: json }),
        });
        expectSane(res, path, 'trpc');
        if (
          takesInput(path) &&
          !Array.isArray(payload) &&
          typeof payload !== 'object' &&
          payload !== undefined
        )
          expect(res.statusCode, `${path} with ${json.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      }),
      { ...params, numRuns: Math.max(5, Math.round(runs / 2)) },
    );
  });
});

describe('after the fuzzing', () => {
  it('the process still serves: health is ok and an ordinary call succeeds', async () => {
    const health = await t.request({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/users/me', token: admin.token });
    expect(me.statusCode).toBe(200);
  });
});
