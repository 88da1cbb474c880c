import { messages } from '@resort/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { BODY_LIMIT_BYTES: '4096' } });
});
afterAll(() => t.close());

describe('REST adapter layer', () => {
  it('answers an unknown /api route with a JSON 404', async () => {
    const res = await t.request({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    // The framework's own answers use the API's error shape and never echo the request back.
    expect(res.json()).toEqual({ message: messages.common.routeNotFound, code: 'NOT_FOUND' });
  });

  it('answers a validation error with 400, the zod message first and every issue listed', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      body: { name: '', email: 'not-an-email', password: 'Sunshine2Castle' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; code: string; issues: { path: string; message: string }[] }>();
    expect(body.code).toBe('BAD_REQUEST');
    expect(body.message).toBe('Name is required.');
    expect(body.issues).toEqual([
      { path: 'name', message: 'Name is required.' },
      { path: 'email', message: 'Enter a valid email address.' },
    ]);
  });

  it('answers 401 without a token and with a tampered one', async () => {
    const none = await t.request({ method: 'GET', url: '/api/users/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ message: 'Authentication required.', code: 'UNAUTHORIZED' });
    const user = await createUser(t);
    const tampered = `${user.token.slice(0, -4)}AAAA`;
    const bad = await t.request({ method: 'GET', url: '/api/users/me', token: tampered });
    expect(bad.statusCode).toBe(401);
    expect(bad.json<{ message: string }>().message).toBe('Invalid access token.');
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'a@example.com', password: 'x'.repeat(10_000) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Request body is too large.', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Invalid JSON provided.' });
  });

  it('answers an unexpected fault with 500 and no stack trace or internals', async () => {
    const user = await createUser(t);
    // A genuine fault: the table the procedure reads is gone.
    await sql`ALTER TABLE users RENAME TO users_gone`.execute(t.db);
    try {
      const res = await t.request({ method: 'GET', url: '/api/auth/me', token: user.token });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        message: 'Something went wrong on our side. Please try again.',
        code: 'INTERNAL',
      });
      expect(res.body).not.toMatch(/users_gone|relation|at .*\.ts/);
    } finally {
      await sql`ALTER TABLE users_gone RENAME TO users`.execute(t.db);
    }
  });

  it('reports database and queue readiness on /api/health', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    // This app was started without pg-boss, so the queue is reported not ready (503).
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ data: { database: { ready: true }, queue: { ready: false } } });
  });

  it('answers the same procedures over tRPC with the same messages', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'nobody@example.com', password: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).toBe('Password is required.');
  });
});

describe('OpenAPI', () => {
  it('documents every REST route with its input schema', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
      components: { schemas: Record<string, unknown> };
    }>();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/auth/register']?.post?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/AuthRegisterBody' } } },
    });
    expect(doc.components.schemas.AuthRegisterBody).toMatchObject({
      properties: { email: {}, password: {}, name: {} },
    });
    const page = await t.request({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/api/openapi.json');
  });
});
