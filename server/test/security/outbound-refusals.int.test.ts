import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTemplate, validPayload } from '../alerts/fixtures.ts';
import { createUser, type TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts';
import { type HttpReceiver, startHttpReceiver } from '../helpers/receivers.ts';

/**
 * Outbound safety (docs/product.md, "Outbound safety"), end to end through the three ways a user or admin names a URL:
 * webhook and Slack channels (saved and test-sent) and the template live test. Each form of a
 * private address, each name resolving to one, and each non-http scheme is refused unless
 * allow-listed; a trap server on loopback proves nothing was sent. Names are served by a real DNS
 * server on loopback (OUTBOUND_DNS_SERVERS), so one name can carry a public and a private record.
 */
const PUBLIC = '93.184.215.14';

let dns: TestDnsServer;
let trap: HttpReceiver;
let strict: TestApp;
let lenient: TestApp;
let rebindAnswers = 0;

beforeAll(async () => {
  trap = await startHttpReceiver();
  dns = await startDnsServer((name, type) => {
    const v4 = (...a: string[]) => (type === 'A' ? a : []);
    const v6 = (...a: string[]) => (type === 'AAAA' ? a : []);
    switch (name) {
      case 'private.resort.test':
        return v4('127.0.0.1');
      case 'metadata.resort.test':
        return v4('169.254.169.254');
      case 'mixed.resort.test':
        return v4(PUBLIC, '127.0.0.1');
      case 'mixed6.resort.test':
        return [...v4(PUBLIC), ...v6('::1')];
      case 'ula.resort.test':
        return v6('fd00::1');
      case 'compat.resort.test':
        return v6('::7f00:1');
      case 'rebind.resort.test':
        // Public to the first A question (the check when the URL is saved or tested), loopback after.
        if (type !== 'A') return [];
        rebindAnswers++;
        return rebindAnswers === 1 ? [PUBLIC] : ['127.0.0.1'];
      default:
        return null;
    }
  });
  const env = { OUTBOUND_DNS_SERVERS: dns.address, OUTBOUND_TIMEOUT_MS: '3000' };
  strict = await startTestApp({ env });
  lenient = await startTestApp({ env: { ...env, OUTBOUND_ALLOWLIST: '127.0.0.1, ::1' } });
});
afterAll(async () => {
  await strict.close();
  await lenient.close();
  await trap.close();
  await dns.close();
});

const port = () => new URL(trap.url).port;
/** URLs are listed before the trap listens; `PORT` is filled in when a case runs. */
const withPort = (url: string) => url.replace('PORT', port());

/** Every URL a guard of this kind has been bypassed with elsewhere, pointed at the trap where it can be. */
const refusedUrls: [string, string][] = [
  ['loopback', `http://127.0.0.1:PORT/hook`],
  ['loopback, another address of 127/8', `http://127.3.2.1:PORT/hook`],
  ['unspecified 0.0.0.0', `http://0.0.0.0:PORT/hook`],
  ['IPv6 loopback', `http://[::1]:PORT/hook`],
  ['private 10/8', 'http://10.0.0.1/hook'],
  ['private 172.16/12', 'http://172.16.0.1/hook'],
  ['private 192.168/16', 'http://192.168.1.1/hook'],
  ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data/'],
  ['CGNAT 100.64/10', 'http://100.64.0.1/hook'],
  ['benchmarking 198.18/15', 'http://198.19.255.1/hook'],
  ['IPv4-mapped IPv6 loopback', `http://[::ffff:127.0.0.1]:PORT/hook`],
  ['IPv4-mapped IPv6 metadata, hex', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/'],
  ['NAT64 metadata', 'http://[64:ff9b::a9fe:a9fe]/'],
  // Issue 21, finding 4: every IPv6 form that carries an IPv4 address, and the rest of IANA's table.
  ['IPv4-compatible IPv6 loopback', `http://[::127.0.0.1]:PORT/hook`],
  ['IPv4-compatible IPv6 metadata', 'http://[::169.254.169.254]/latest/meta-data/'],
  ['a name whose AAAA is IPv4-compatible loopback', `http://compat.resort.test:PORT/hook`],
  ['SIIT-translated loopback', `http://[::ffff:0:7f00:1]:PORT/hook`],
  ['NAT64 carrying a private address', 'http://[64:ff9b::10.0.0.1]/hook'],
  ['local-use NAT64', 'http://[64:ff9b:1::a00:1]/hook'],
  ['6to4 carrying loopback', `http://[2002:7f00:1::1]:PORT/hook`],
  ['Teredo carrying loopback', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook'],
  ['IPv6 documentation', 'http://[2001:db8::1]/hook'],
  ['IPv4 documentation', 'http://203.0.113.5/hook'],
  ['ULA fc00::/7', 'http://[fd00::1]/hook'],
  ['IPv6 link-local', 'http://[fe80::1]/hook'],
  ['decimal IPv4', `http://2130706433:PORT/hook`],
  ['octal IPv4', `http://017700000001:PORT/hook`],
  ['hex IPv4', `http://0x7f000001:PORT/hook`],
  ['dotted hex and short form', `http://0x7f.1:PORT/hook`],
  ['a name resolving to loopback', `http://private.resort.test:PORT/hook`],
  ['a name resolving to link-local', 'http://metadata.resort.test/latest/meta-data/'],
  ['a name with a public and a private A record', `http://mixed.resort.test:PORT/hook`],
  ['a name with a public A and a loopback AAAA record', `http://mixed6.resort.test:PORT/hook`],
  ['a name resolving to ULA only', 'http://ula.resort.test/hook'],
  ['ftp scheme', `ftp://${PUBLIC}/hook`],
  ['file scheme', 'file:///etc/passwd'],
  ['gopher scheme at loopback', `gopher://127.0.0.1:PORT/_hook`],
  ['javascript scheme', 'javascript:alert(1)'],
  ['data scheme', 'data:text/plain,hook'],
  ['credentials in the URL', `http://user:pass@${PUBLIC}/hook`],
];

interface Refusal {
  status: number;
  message: string;
}

async function saveChannel(t: TestApp, user: TestUser, type: string, url: string): Promise<Refusal> {
  const res = await t.request({
    method: 'POST',
    url: '/api/users/me/notification-services',
    token: user.token,
    body: { type, label: 'Guard probe', config: { url } },
  });
  return { status: res.statusCode, message: res.json<{ message: string }>().message };
}

async function testChannel(t: TestApp, user: TestUser, type: string, url: string): Promise<Refusal> {
  const res = await t.request({
    method: 'POST',
    url: '/api/users/me/notification-services/test',
    token: user.token,
    body: { type, label: 'Guard probe', config: { url } },
  });
  return { status: res.statusCode, message: res.json<{ message: string }>().message };
}

async function testTemplate(t: TestApp, admin: TestUser, targetUrl: string) {
  const created = await t.request({
    method: 'POST',
    url: '/api/templates',
    token: admin.token,
    body: { name: `Guard probe ${Math.random()}`, resortCode: 'GRD', targetUrl: `http://${PUBLIC}/rooms` },
  });
  const id = created.json<{ data: { id: string } }>().data.id;
  const res = await t.request({
    method: 'POST',
    url: `/api/templates/${id}/test`,
    token: admin.token,
    body: { template: { targetUrl, method: 'GET' } },
  });
  return {
    status: res.statusCode,
    body: res.json<{ message?: string; data?: { response: unknown; error: string | null } }>(),
  };
}

/** The refusal names the rule: a private or reserved address, or a URL that is not http(s). */
const refusalMessage =
  /private or reserved|must be a valid|Only http and https|Credentials in the URL|valid URL/i;

describe('refused unless allow-listed', () => {
  let webhookUser: TestUser;
  let slackUser: TestUser;
  let admin: TestUser;
  let cases = 0;
  beforeAll(async () => {
    admin = await createUser(strict, { role: 'admin' });
  });

  it.each(refusedUrls)('%s: %s', async (_what, listed) => {
    // Fresh users every 25 cases: each user may test-send 30 times in 10 minutes.
    if (cases++ % 25 === 0) {
      webhookUser = await createUser(strict);
      slackUser = await createUser(strict);
    }
    const url = withPort(listed);
    const before = trap.requests.length;
    for (const [type, user] of [
      ['WEBHOOK', webhookUser],
      ['SLACK_WEBHOOK', slackUser],
    ] as const) {
      const saved = await saveChannel(strict, user, type, url);
      expect(saved.status, `${type} saved`).toBe(400);
      expect(saved.message, `${type} saved`).toMatch(refusalMessage);
      const tested = await testChannel(strict, user, type, url);
      expect(tested.status, `${type} test-sent`).toBe(400);
      expect(tested.message, `${type} test-sent`).toMatch(refusalMessage);
    }
    const template = await testTemplate(strict, admin, url);
    if (template.status === 200) {
      expect(template.body.data?.response, 'template test').toBeNull();
      expect(template.body.data?.error, 'template test').toMatch(refusalMessage);
    } else {
      expect(template.status, 'template test').toBe(400);
      expect(template.body.message, 'template test').toMatch(refusalMessage);
    }
    expect(trap.requests.length, 'requests that reached the trap').toBe(before);
    const stored = await strict.db
      .selectFrom('notification_services')
      .select('id')
      .where('user_id', 'in', [webhookUser.id, slackUser.id])
      .where('type', 'in', ['WEBHOOK', 'SLACK_WEBHOOK'])
      .execute();
    expect(stored).toEqual([]);
  });

  it('refuses a name that answers a public address to the first lookup and loopback to the connection (DNS rebinding)', async () => {
    const user = await createUser(strict);
    const before = trap.requests.length;
    rebindAnswers = 0;
    const tested = await testChannel(
      strict,
      user,
      'WEBHOOK',
      withPort('http://rebind.resort.test:PORT/hook'),
    );
    // The pre-check saw the public answer; the connection's own lookup saw loopback and refused it.
    expect(rebindAnswers).toBeGreaterThanOrEqual(2);
    expect(tested.status).toBe(400);
    expect(tested.message).toMatch(/private or reserved.*rebind\.resort\.test \(127\.0\.0\.1\)/);
    expect(trap.requests.length).toBe(before);
    expect(dns.questions).toContain('A rebind.resort.test');
  });
});

describe('allowed when allow-listed', () => {
  it.each([
    ['loopback', 'http://127.0.0.1:PORT/allowed'],
    ['decimal form of an allowed address', 'http://2130706433:PORT/allowed'],
    ['a name resolving to an allowed address', 'http://private.resort.test:PORT/allowed'],
  ])('%s reaches the receiver, so the refusals above are the guard at work', async (_what, url) => {
    const user = await createUser(lenient);
    const target = withPort(url);
    for (const type of ['WEBHOOK', 'SLACK_WEBHOOK']) {
      const before = trap.requests.length;
      const tested = await testChannel(lenient, user, type, target);
      expect(tested.status, `${type} ${target}: ${tested.message}`).toBe(200);
      expect(trap.requests.length).toBe(before + 1);
    }
  });

  it('still refuses what the allowlist does not name, and a mixed name whose private record is not allowed', async () => {
    const user = await createUser(lenient);
    const before = trap.requests.length;
    expect((await testChannel(lenient, user, 'WEBHOOK', withPort('http://127.0.0.2:PORT/x'))).status).toBe(
      400,
    );
    expect((await testChannel(lenient, user, 'WEBHOOK', 'http://metadata.resort.test/')).status).toBe(400);
    expect(trap.requests.length).toBe(before);
  });
});

describe('the alert test (same guard, issue 21 finding 4)', () => {
  it.each([
    `http://[::127.0.0.1]:PORT/rooms`,
    `http://[2002:7f00:1::1]:PORT/rooms`,
    `http://compat.resort.test:PORT/rooms`,
  ])('refuses a template upstream at %s', async (listed) => {
    const planner = await createUser(strict);
    const templateId = await insertTemplate(strict, { targetUrl: withPort(listed) });
    const before = trap.requests.length;
    const res = await strict.request({
      method: 'POST',
      url: '/api/registrations/test',
      token: planner.token,
      body: validPayload(templateId),
    });
    const body = res.json<{ message?: string; data?: { success: boolean; error: string | null } }>();
    if (res.statusCode === 200) {
      expect(body.data?.success).toBe(false);
      expect(body.data?.error).toMatch(refusalMessage);
    } else {
      expect(res.statusCode).toBe(400);
      expect(body.message).toMatch(refusalMessage);
    }
    expect(trap.requests.length).toBe(before);
  });
});

describe('redirects', () => {
  let redirector: HttpReceiver;
  let inner: HttpReceiver;
  beforeAll(async () => {
    inner = await startHttpReceiver();
    redirector = await startHttpReceiver(() => ({
      status: 302,
      // 127.0.0.1 is allowed in the lenient app; where it sends us (a metadata address, another
      // loopback address) is not, and must never be asked.
      headers: { location: `${inner.url.replace('127.0.0.1', '127.0.0.2')}/internal` },
    }));
  });
  afterAll(async () => {
    await redirector.close();
    await inner.close();
  });

  it('are not followed to a private address by webhooks, Slack or the template test', async () => {
    const user = await createUser(lenient);
    const admin = await createUser(lenient, { role: 'admin' });
    for (const type of ['WEBHOOK', 'SLACK_WEBHOOK']) {
      const tested = await testChannel(lenient, user, type, `${redirector.url}/hook`);
      expect(tested.status, type).not.toBe(200);
    }
    const template = await testTemplate(lenient, admin, `${redirector.url}/rooms`);
    expect(template.status).toBe(200);
    expect(template.body.data?.response).toMatchObject({ status: 302 });
    expect(redirector.requests.length).toBe(3);
    expect(inner.requests).toEqual([]);
  });
});
