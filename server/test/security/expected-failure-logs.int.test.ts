import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type HttpReceiver, startHttpReceiver } from '../helpers/receivers.ts';

/**
 * Issue 21, finding 9 (logging): a user can make a test send fail at will (their receiver answers
 * 500). That is logged as a warning with its code and reason, never as an error with a stack trace.
 */
const lines: Record<string, unknown>[] = [];
let t: TestApp;
let failing: HttpReceiver;

beforeAll(async () => {
  failing = await startHttpReceiver(() => ({ status: 500, body: 'receiver is down' }));
  t = await startTestApp({
    env: { OUTBOUND_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'info' },
    logDestination: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
});
afterAll(async () => {
  await t.close();
  await failing.close();
});

describe('a failing test send', () => {
  it('answers 502 and logs a warning without a stack, on REST and tRPC', async () => {
    const user = await createUser(t);
    const body = { type: 'WEBHOOK', label: 'Down', config: { url: `${failing.url}/hook` } };
    const rest = await t.request({
      method: 'POST',
      url: '/api/users/me/notification-services/test',
      token: user.token,
      body,
    });
    expect(rest.statusCode).toBe(502);
    const trpc = await t.app.inject({
      method: 'POST',
      url: '/trpc/notificationServices.test',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(trpc.statusCode).toBe(502);
    const failures = lines.filter((l) => l.msg === 'request failed');
    expect(failures.length).toBe(2);
    for (const line of failures) {
      expect(line.level).toBe(40);
      expect(line.code).toBe('BAD_GATEWAY');
      expect(JSON.stringify(line)).not.toMatch(/"stack"|"err"/);
    }
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});
