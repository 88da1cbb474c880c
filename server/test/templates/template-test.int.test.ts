import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TemplateTestResult, templateMessages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startUpstream, type TestUpstream } from '../helpers/outbound-upstream.ts';
import { createTemplate } from './fixtures.ts';

let t: TestApp;
let admin: TestUser;
let upstream: TestUpstream;

beforeAll(async () => {
  upstream = await startUpstream();
  // Loopback is allow-listed by configuration so the test upstream is reachable; nothing else is.
  t = await startTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.1', OUTBOUND_TIMEOUT_MS: '5000' } });
  admin = await createUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});

async function runTest(templateId: string, body: unknown) {
  const res = await t.request({
    method: 'POST',
    url: `/api/templates/${templateId}/test`,
    token: admin.token,
    body,
  });
  return { status: res.statusCode, result: res.json<{ data: TemplateTestResult }>().data, res };
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('POST /api/templates/{id}/test', () => {
  it('sends the editor’s unsaved values to a loopback upstream and answers the built request and its JSON', async () => {
    const template = await createTemplate(t, admin, { targetUrl: 'https://upstream.example.com/unused' });
    const { status, result } = await runTest(template.id, {
      template: { targetUrl: `${upstream.base}/json`, defaultQuery: { currency: 'EUR', page: 2 } },
    });
    expect(status).toBe(200);
    expect(result.error).toBeNull();
    expect(result.response).toEqual({ status: 200, data: { rooms: [{ price: 120 }] } });
    expect(result.durationMs).toEqual(expect.any(Number));
    // Template defaults, then the override fields' default values (adults 2, children 0 → no ages).
    expect(result.request).toEqual({
      url: `${upstream.base}/json?currency=EUR&page=2`,
      method: 'POST',
      headers: { accept: 'application/json', 'x-api-key': 'upstream-secret' },
      query: { currency: 'EUR', page: 2 },
      body: {
        resortCode: 'POLY',
        stay: { checkIn: '2027-03-01' },
        party: { adults: 2, children: 0, childAges: [] },
      },
    });

    const seen = upstream.seen.at(-1)!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/json?currency=EUR&page=2');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['x-api-key']).toBe('upstream-secret');
    expect(JSON.parse(seen.body)).toEqual(result.request.body);

    // The unsaved values were not saved.
    const saved = await t.request({
      method: 'GET',
      url: `/api/templates/${template.id}`,
      token: admin.token,
    });
    expect(saved.json<{ data: { targetUrl: string } }>().data.targetUrl).toBe(
      'https://upstream.example.com/unused',
    );
  });

  it('tests the saved template when no values are sent, inactive templates included', async () => {
    const template = await createTemplate(t, admin, {
      targetUrl: `${upstream.base}/echo`,
      method: 'PUT',
      isActive: false,
    });
    const { status, result } = await runTest(template.id, {});
    expect(status).toBe(200);
    expect(result.response?.status).toBe(200);
    const echoed = result.response?.data as { method: string; body: string };
    expect(echoed.method).toBe('PUT');
    expect(JSON.parse(echoed.body)).toMatchObject({ resortCode: 'POLY' });
  });

  it('answers text that is not JSON as text, and reports an upstream error status in error', async () => {
    const template = await createTemplate(t, admin, { targetUrl: `${upstream.base}/missing`, method: 'GET' });
    const { status, result } = await runTest(template.id, {});
    expect(status).toBe(200);
    expect(result.response).toEqual({ status: 404, data: 'not found' });
    expect(result.error).toBe(templateMessages.upstreamStatus(404));
    expect(result.request.body).toBeUndefined();
    expect(upstream.seen.at(-1)?.method).toBe('GET');
  });

  it('reports an unreachable upstream in error, with status 200 from our API', async () => {
    const port = await closedPort();
    const template = await createTemplate(t, admin, { targetUrl: `http://127.0.0.1:${port}/rooms` });
    const { status, result } = await runTest(template.id, {});
    expect(status).toBe(200);
    expect(result.response).toBeNull();
    expect(result.error).toBe(`Connection refused by 127.0.0.1:${port}.`);
    expect(result.request.url).toBe(`http://127.0.0.1:${port}/rooms?currency=USD`);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is linkLocal'],
    ['http://10.0.0.1/rooms', '10.0.0.1 is private'],
  ])('refuses %s through the outbound guard when it is not allow-listed', async (targetUrl, detail) => {
    const template = await createTemplate(t, admin);
    const { status, result } = await runTest(template.id, { template: { targetUrl } });
    expect(status).toBe(200);
    expect(result.response).toBeNull();
    expect(result.error).toBe(`Requests to private or reserved addresses are not allowed: ${detail}.`);
  });

  it('validates the sent values with the template rules, and answers 404 for an unknown template', async () => {
    const template = await createTemplate(t, admin);
    const invalid = await runTest(template.id, { template: { targetUrl: 'not a url' } });
    expect(invalid.status).toBe(400);
    expect(invalid.res.json<{ message: string }>().message).toBe(templateMessages.targetUrlInvalid);
    const unknown = await runTest('7d7e1c1e-97a9-4c5e-9a5c-1d3b1b0b0b0b', {});
    expect(unknown.status).toBe(404);
  });
});
