import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AlertTestResult } from '@resort/shared';
import { alertMessages as m, messages } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  type Answer,
  type ErrorBody,
  editableFields,
  insertTemplate,
  isoDay,
  validPayload,
} from './fixtures.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real upstream on loopback: answers what the test sets and records what it was sent. */
let upstream: Server;
let upstreamUrl: string;
let answer: { status: number; body: unknown } = { status: 200, body: {} };
const seen: Seen[] = [];

let t: TestApp;
let planner: TestUser;
let templateId: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  // The outbound guard refuses loopback unless configured otherwise, as an operator would.
  t = await startTestApp({ env: { OUTBOUND_ALLOWLIST: '127.0.0.1' } });
  planner = await createUser(t);
  templateId = await insertTemplate(t, {
    targetUrl: `${upstreamUrl}/availability`,
    defaultHeaders: { 'x-api-key': 'demo' },
  });
});
afterAll(async () => {
  await t.close();
  upstream.close();
});

function runTest(user: TestUser, body: unknown) {
  return t.request({ method: 'POST', url: '/api/registrations/test', token: user.token, body });
}

const rule = (max: number) => ({
  all: [{ path: 'rooms[*].price', operator: 'lte', value: max, presetId: 'price' }],
});
const rooms = {
  rooms: [
    { price: 410, status: 'SOLD_OUT' },
    { price: 250, status: 'OPEN' },
  ],
};

describe('POST /api/registrations/test', () => {
  it('reports matched true when a rule matches, and sends what the builder built', async () => {
    answer = { status: 200, body: rooms };
    seen.length = 0;
    const res = await runTest(planner, validPayload(templateId, { watchConfig: rule(300) }));
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<Answer<AlertTestResult>>().data;
    expect(result).toMatchObject({
      success: true,
      statusCode: 200,
      availabilityOpen: true,
      watch: { matched: true },
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen).toHaveLength(1);
    const sent = seen[0]!;
    expect(sent.method).toBe('POST');
    const url = new URL(sent.url, upstreamUrl);
    expect(url.pathname).toBe('/availability');
    expect(url.searchParams.get('currency')).toBe('USD');
    expect(url.searchParams.get('arrival')).toBe(isoDay(30));
    expect(sent.headers['x-api-key']).toBe('demo');
    expect(JSON.parse(sent.body)).toMatchObject({
      resort: 'GF',
      party: { adults: 2, children: 1, childAges: [7] },
    });
  });

  it('reports matched false when no rule matches', async () => {
    answer = { status: 200, body: rooms };
    const res = await runTest(planner, validPayload(templateId, { watchConfig: rule(200) }));
    expect(res.json<Answer<AlertTestResult>>().data).toMatchObject({
      success: true,
      statusCode: 200,
      availabilityOpen: false,
      watch: { matched: false },
    });
  });

  it('answers watch null with no rules, availability following the status', async () => {
    answer = { status: 200, body: rooms };
    const res = await runTest(planner, validPayload(templateId, { watchConfig: { all: [], any: [] } }));
    expect(res.json<Answer<AlertTestResult>>().data).toMatchObject({
      success: true,
      availabilityOpen: true,
      watch: null,
    });
  });

  it('reports an upstream error status as unsuccessful and not open', async () => {
    answer = { status: 503, body: rooms };
    const res = await runTest(planner, validPayload(templateId, { watchConfig: rule(300) }));
    expect(res.json<Answer<AlertTestResult>>().data).toMatchObject({
      success: false,
      statusCode: 503,
      availabilityOpen: false,
      watch: { matched: true },
    });
  });

  it('reports a blocked upstream without calling it', async () => {
    const privateTemplate = await insertTemplate(t, { targetUrl: 'http://10.255.255.1/availability' });
    const res = await runTest(planner, validPayload(privateTemplate, { watchConfig: rule(300) }));
    expect(res.statusCode).toBe(200);
    const result = res.json<Answer<AlertTestResult>>().data;
    expect(result).toMatchObject({ success: false, statusCode: null, availabilityOpen: false, watch: null });
    expect(result.error).toEqual(expect.any(String));
  });

  it('validates the payload and the template', async () => {
    const missing = await runTest(planner, { watchConfig: rule(1) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<ErrorBody>().message).toBe(m.templateRequired);
    const unknown = await runTest(planner, validPayload('7b0c3c57-51a4-4d5f-8f0e-3f4a0f1f0f0f'));
    expect(unknown.json<ErrorBody>().message).toBe(m.templateUnavailable);
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/registrations/test',
      body: validPayload(templateId),
    });
    expect(res.statusCode).toBe(401);
  });

  it('rate limits each user with 429 and Retry-After', async () => {
    answer = { status: 200, body: rooms };
    const busy = await createUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await runTest(busy, validPayload(templateId))).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    const limited = await runTest(busy, validPayload(templateId));
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json<ErrorBody>().message).toBe(messages.common.rateLimited);
    // Another user is not held back by the first one's tests.
    expect((await runTest(planner, validPayload(templateId))).statusCode).toBe(200);
  });

  it('tests a flexible-dates alert on its first stay, written into the template’s stay fields', async () => {
    answer = { status: 200, body: rooms };
    const stayTemplate = await insertTemplate(t, {
      targetUrl: `${upstreamUrl}/availability`,
      editableFields: [
        ...editableFields,
        { target: 'QUERY', path: 'departure', label: 'Departure', fieldType: 'DATE' },
      ],
      stay: {
        checkIn: { target: 'QUERY', path: 'arrival' },
        checkOut: { target: 'QUERY', path: 'departure' },
      },
    });
    const payload = validPayload(stayTemplate, {
      watchConfig: rule(300),
      stayWindow: [{ start: isoDay(40), end: isoDay(50), minNights: 3, maxNights: 4 }],
    });
    const { arrival: _arrival, ...query } = payload.overrides.query;
    seen.length = 0;
    const res = await runTest(planner, { ...payload, overrides: { ...payload.overrides, query } });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(seen[0]!.url, upstreamUrl);
    expect(url.searchParams.get('arrival')).toBe(isoDay(40));
    expect(url.searchParams.get('departure')).toBe(isoDay(43));
  });
});
