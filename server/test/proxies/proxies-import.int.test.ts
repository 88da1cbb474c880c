import { type ImportProxiesResult, proxyMessages, type WebProxy } from '@resort/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createUser(t, { role: 'admin' });
});
afterAll(() => t.close());

async function importText(body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/proxies/import', token: admin.token, body });
  return { status: res.statusCode, body: res.json<{ data: ImportProxiesResult; message: string }>() };
}

async function listProxies(): Promise<WebProxy[]> {
  const res = await t.request({ method: 'GET', url: '/api/proxies', token: admin.token });
  return res.json<{ data: WebProxy[] }>().data;
}

describe('POST /api/proxies/import', () => {
  it('imports a mixed file: creates the valid lines, skips duplicates, reports bad lines', async () => {
    const existing = await t.request({
      method: 'POST',
      url: '/api/proxies',
      token: admin.token,
      body: { host: 'existing.example.com', port: 8080 },
    });
    expect(existing.statusCode).toBe(201);

    const text = [
      'plain.example.com:8080',
      'cred.example.com:3128:alice:s3cret',
      'sock.example.com:1080:socks5',
      'full.example.com:443:bob:p:w:https',
      '',
      'badport.example.com:99999',
      ':8080',
      'EXISTING.example.com:8080',
      'plain.example.com:8080',
      '   ',
    ].join('\n');
    const res = await importText({ text, activateByDefault: false, fileName: 'proxies.txt' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      created: 4,
      skipped: 2,
      errors: [
        { line: 6, reason: proxyMessages.portRange, content: 'badport.example.com:99999' },
        { line: 7, reason: proxyMessages.hostRequired, content: ':8080' },
      ],
    });

    const byHost = new Map((await listProxies()).map((p) => [p.host, p]));
    expect(byHost.size).toBe(5);
    expect(byHost.get('plain.example.com')).toMatchObject({
      port: 8080,
      protocol: 'http',
      username: null,
      isActive: false,
    });
    expect(byHost.get('cred.example.com')).toMatchObject({
      port: 3128,
      username: 'alice',
      password: 's3cret',
    });
    expect(byHost.get('sock.example.com')).toMatchObject({ port: 1080, protocol: 'socks5', username: null });
    expect(byHost.get('full.example.com')).toMatchObject({
      protocol: 'https',
      username: 'bob',
      password: 'p:w',
    });
    expect(byHost.get('existing.example.com')?.isActive).toBe(true);
  });

  it('activates imported proxies by default', async () => {
    const res = await importText({ text: 'active.example.com:9000' });
    expect(res.body.data).toEqual({ created: 1, skipped: 0, errors: [] });
    expect((await listProxies()).find((p) => p.host === 'active.example.com')?.isActive).toBe(true);
  });

  it('refuses a file that is not .txt and a missing text', async () => {
    const csv = await importText({ text: 'a.example.com:1', fileName: 'list.csv', activateByDefault: true });
    expect(csv.status).toBe(400);
    expect(csv.body.message).toBe(proxyMessages.importMustBeTxt);
    const missing = await importText({ activateByDefault: true });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(proxyMessages.importTextRequired);
    expect((await listProxies()).some((p) => p.host === 'a.example.com')).toBe(false);
  });

  it('imports 10,000 lines in one call, and a second run skips them all', async () => {
    const lines = Array.from(
      { length: 10_000 },
      (_, i) => `bulk-${i}.example.org:${1000 + (i % 50)}:user${i}:pass${i}`,
    );
    const first = await importText({ text: lines.join('\n'), activateByDefault: true });
    expect(first.body.data).toEqual({ created: 10_000, skipped: 0, errors: [] });
    const again = await importText({ text: lines.join('\r\n'), activateByDefault: true });
    expect(again.body.data).toEqual({ created: 0, skipped: 10_000, errors: [] });
    const count = await t.db
      .selectFrom('proxies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('host', 'like', 'bulk-%')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10_000);
  });
});
