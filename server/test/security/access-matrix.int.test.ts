import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  allProcedurePaths,
  procedureAccess,
  procedureType,
  restRoutesWithAccess,
} from '../helpers/routes.ts';
import { type AccessExpectation, accessExpectations } from './access-expectations.ts';
import { type Answer, type CallPlan, callRest, callTrpc } from './surfaces.ts';
import { createWorld, type World } from './world.ts';

/**
 * docs/security.md: every tRPC procedure and every REST route × {signed out, user, other user, admin,
 * super_admin}. The rows come from the router; the expectations from a hand-written table.
 */
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await startTestApp({ boss: true });
  w = await createWorld(t);
});
afterAll(() => t.close());

const callers = ['signed out', 'user', 'other user', 'admin', 'super_admin'] as const;
type Caller = (typeof callers)[number];
type Outcome = 'allow' | 401 | 403 | 404;

function outcomeFor(e: AccessExpectation, caller: Caller): Outcome {
  if (caller === 'signed out') return e.access === 'public' ? 'allow' : 401;
  if (caller === 'super_admin') return 'allow';
  if (e.access === 'super_admin') return 403;
  if (caller === 'admin') return 'allow';
  if (e.access === 'admin') return 403;
  if (caller === 'other user' && e.owned) return 404;
  return 'allow';
}

/** Who the call is made for (whose resource the plan builds) and whose token it carries. */
function parties(
  e: AccessExpectation,
  caller: Caller,
): { owner: TestUser | null; token: string | undefined } {
  switch (caller) {
    case 'signed out':
      // A protected procedure gets a valid input for a real user, so only the missing token is wrong.
      return { owner: e.access === 'public' ? null : w.user, token: undefined };
    case 'user':
      return { owner: w.user, token: w.user.token };
    case 'other user':
      return { owner: e.owned ? w.user : w.otherUser, token: w.otherUser.token };
    case 'admin':
      return { owner: w.admin, token: w.admin.token };
    case 'super_admin':
      return { owner: w.superAdmin, token: w.superAdmin.token };
  }
}

function expectationOf(procedure: string): AccessExpectation {
  const e = accessExpectations[procedure];
  if (!e) {
    throw new Error(
      `No access expectation for procedure ${procedure}: add it to server/test/security/access-expectations.ts`,
    );
  }
  return e;
}

async function check(
  procedure: string,
  caller: Caller,
  call: (plan: CallPlan, token: string | undefined) => Promise<Answer>,
) {
  const e = expectationOf(procedure);
  const { owner, token } = parties(e, caller);
  const plan = (await e.plan?.(w, owner)) ?? {};
  const answer = await call(plan, token && plan.token ? plan.token : token);
  const expected = outcomeFor(e, caller);
  const shown = `${caller} → ${procedure}: ${answer.status} ${JSON.stringify(answer.body)}`;
  if (expected === 'allow') {
    expect(answer.status, shown).toBeGreaterThanOrEqual(200);
    expect(answer.status, shown).toBeLessThan(300);
  } else {
    expect(answer.status, shown).toBe(expected);
    expect(answer.message, shown).toEqual(expect.any(String));
  }
}

describe('the expectation table', () => {
  it('has an entry for every procedure of the router, and none for a procedure that is gone', () => {
    const procedures = allProcedurePaths().sort();
    const missing = procedures.filter((p) => !(p in accessExpectations));
    const stale = Object.keys(accessExpectations).filter((p) => !procedures.includes(p));
    expect(missing, 'procedures without an access expectation').toEqual([]);
    expect(stale, 'expectations for procedures that no longer exist').toEqual([]);
  });

  it('agrees with the access level each procedure declares on the procedure ladder', () => {
    for (const path of allProcedurePaths()) {
      expect(procedureAccess(path), path).toBe(accessExpectations[path]?.access);
    }
  });

  it('marks as owned only procedures that need a signed-in caller', () => {
    for (const [path, e] of Object.entries(accessExpectations)) {
      if (e.owned) expect(e.access, path).toBe('user');
    }
  });
});

// Subscriptions are streams that stay open: test/live/live-events.int.test.ts covers who may open one.
const procedureCells = allProcedurePaths()
  .filter((p) => procedureType(p) !== 'subscription')
  .flatMap((p) => callers.map((c) => [p, c] as const));

describe('over tRPC', () => {
  it.each(procedureCells)('%s as %s', (procedure, caller) =>
    check(procedure, caller, (plan, token) => callTrpc(t, procedure, plan, token)),
  );
});

const restCells = restRoutesWithAccess().flatMap((r) =>
  callers.map((c) => [`${r.method} /api${r.path}`, c, r] as const),
);

describe('over REST', () => {
  it.each(restCells)('%s as %s', (_name, caller, route) =>
    check(route.procedure, caller, (plan, token) => callRest(t, route, plan, token)),
  );
});
