import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { STRONG_PASSWORD, uniqueEmail } from '../factories.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { exitCodeOf, spawnAppProcess } from '../helpers/worker-process.ts';

/**
 * Roles and account state are remembered per process and forgotten through PostgreSQL's
 * LISTEN/NOTIFY (docs/decisions.md, "Accounts remembered per process"). Two real app processes serve
 * the same database: a demotion, a disable and a deletion made through either of them, or by any
 * SQL at all, are refused by both within a second; so they are while a process's listening
 * connection is lost and opened again.
 */

const BOUND_MS = 1000;

let database: TestDatabase;
let handle: DatabaseHandle;
const children: ChildProcess[] = [];
let a: string;
let b: string;
let superToken: string;

interface Account {
  id: string;
  token: string;
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { data?: unknown }) : null };
}

async function register(name: string): Promise<Account> {
  const res = await call(a, 'POST', '/api/auth/register', undefined, {
    name,
    email: uniqueEmail('cache'),
    password: STRONG_PASSWORD,
  });
  expect(res.status).toBe(201);
  const data = res.body!.data as { user: { id: string }; tokens: { accessToken: string } };
  return { id: data.user.id, token: data.tokens.accessToken };
}

/** Both processes answer `status` to the account, each read once so each remembers it. */
async function expectOnBoth(path: string, token: string, status: number) {
  for (const base of [a, b]) expect((await call(base, 'GET', path, token)).status, base).toBe(status);
}

/**
 * How long after `since` each process took to answer `status`, asked again every 20 ms (the
 * bound is checked by the caller, so a failure shows the time it took).
 */
async function refusedAfter(path: string, token: string, status: number, since: number) {
  return Promise.all(
    [a, b].map(async (base) => {
      for (;;) {
        const res = await call(base, 'GET', path, token);
        const elapsed = Date.now() - since;
        if (res.status === status) return elapsed;
        if (elapsed > 10_000) return Number.POSITIVE_INFINITY;
        await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDatabase(database.url, { max: 2 });
  // HTTP only: the engine plays no part here, and a loaded CI machine has two cores.
  const env = { RUN_WORKER: 'false' };
  const first = spawnAppProcess(database.url, env);
  const second = spawnAppProcess(database.url, env);
  children.push(first.child, second.child);
  [a, b] = await Promise.all([first.url, second.url]);
  // The first account of an instance is its super admin.
  superToken = (await register('Cache Super')).token;
}, 90_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exitCodeOf(child);
  }
  await handle?.destroy();
  await database?.drop();
});

describe('an account change reaches every process within a second', { timeout: 60_000 }, () => {
  it('a demoted admin is refused admin routes by both processes', async () => {
    const admin = await register('Cache Admin');
    const promoted = await call(a, 'PUT', `/api/admin/users/${admin.id}/role`, superToken, {
      level: 'admin',
    });
    expect(promoted.status).toBe(200);
    await expectOnBoth('/api/admin/users', admin.token, 200);

    const demoted = await call(b, 'PUT', `/api/admin/users/${admin.id}/role`, superToken, { level: 'user' });
    expect(demoted.status).toBe(200);
    const took = await refusedAfter('/api/admin/users', admin.token, 403, Date.now());
    expect(Math.max(...took), `ms until refused on each process: ${took}`).toBeLessThanOrEqual(BOUND_MS);
    // Still signed in as a planner.
    await expectOnBoth('/api/users/me/registrations', admin.token, 200);
  });

  it('a disabled account is refused by both processes', async () => {
    const planner = await register('Cache Planner');
    await expectOnBoth('/api/users/me/registrations', planner.token, 200);

    const disabled = await call(a, 'PUT', `/api/admin/users/${planner.id}/disabled`, superToken, {
      disabled: true,
    });
    expect(disabled.status).toBe(200);
    const took = await refusedAfter('/api/users/me/registrations', planner.token, 401, Date.now());
    expect(Math.max(...took), `ms until refused on each process: ${took}`).toBeLessThanOrEqual(BOUND_MS);
  });

  it('a deleted account is refused by both processes', async () => {
    const planner = await register('Cache Leaver');
    await expectOnBoth('/api/users/me/registrations', planner.token, 200);

    const removed = await call(b, 'DELETE', `/api/admin/users/${planner.id}`, superToken);
    expect(removed.status).toBe(204);
    const took = await refusedAfter('/api/users/me/registrations', planner.token, 401, Date.now());
    expect(Math.max(...took), `ms until refused on each process: ${took}`).toBeLessThanOrEqual(BOUND_MS);
  });

  it('a change made by any SQL, outside the app, is refused by both processes', async () => {
    const planner = await register('Cache Operator Target');
    await expectOnBoth('/api/users/me/registrations', planner.token, 200);

    await handle.db
      .updateTable('users')
      .set({ disabled_at: new Date() })
      .where('id', '=', planner.id)
      .execute();
    const took = await refusedAfter('/api/users/me/registrations', planner.token, 401, Date.now());
    expect(Math.max(...took), `ms until refused on each process: ${took}`).toBeLessThanOrEqual(BOUND_MS);
  });

  it('while a process’s listening connection is lost and opened again, a change is refused all the same', async () => {
    const planner = await register('Cache Reconnect');
    await expectOnBoth('/api/users/me/registrations', planner.token, 200);

    // Each process listens on one connection named for the purpose; end both.
    const terminated = await terminateListeners();
    expect(terminated).toBe(2);

    await handle.db.deleteFrom('users').where('id', '=', planner.id).execute();
    const took = await refusedAfter('/api/users/me/registrations', planner.token, 401, Date.now());
    expect(Math.max(...took), `ms until refused on each process: ${took}`).toBeLessThanOrEqual(BOUND_MS);

    // Listening again (a second after the loss), a later change still reaches both.
    const next = await register('Cache After Reconnect');
    await expectOnBoth('/api/users/me/registrations', next.token, 200);
    await new Promise((r) => setTimeout(r, 1500));
    await expectOnBoth('/api/users/me/registrations', next.token, 200);
    await handle.db.updateTable('users').set({ disabled_at: new Date() }).where('id', '=', next.id).execute();
    const later = await refusedAfter('/api/users/me/registrations', next.token, 401, Date.now());
    expect(Math.max(...later), `ms until refused on each process: ${later}`).toBeLessThanOrEqual(BOUND_MS);
  });
});

/** Ends the account listeners' backends on this test's database; answers how many. */
async function terminateListeners(): Promise<number> {
  const { rows } = await sqlRows<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'resort-alerts accounts'
     ) t`,
  );
  return rows[0]?.n ?? 0;
}

function sqlRows<T>(text: string): Promise<{ rows: T[] }> {
  return sql.raw<T>(text).execute(handle.db);
}
