import { randomBytes } from 'node:crypto';
import { STRONG_PASSWORD, type TestUser, uniqueEmail } from '../factories.ts';
import type { CallPlan } from './surfaces.ts';
import type { World } from './world.ts';

/**
 * Who may call each procedure, written out by hand. The matrix test reads the router and fails for a
 * procedure with no entry here, so a new procedure cannot ship without someone deciding its access.
 */
export interface AccessExpectation {
  access: 'public' | 'user' | 'admin';
  /**
   * The input names a resource of one user: its owner may use it, any other caller is answered 404
   * (indistinguishable from a missing one).
   */
  owned?: true;
  /**
   * A valid call for `owner` (null: signed out), building what it needs through the API. An allowed
   * caller must get a 2xx answer to it; a refused one the refusal, so the input is never the reason.
   */
  plan?: (w: World, owner: TestUser | null) => Promise<CallPlan> | CallPlan;
}

const randomHost = () => `proxy-${randomBytes(4).toString('hex')}.example.net`;

async function createProxy(w: World): Promise<string> {
  const proxy = await w.api<{ id: string }>(w.setup, 'POST', '/api/proxies', {
    host: randomHost(),
    port: 8080,
    protocol: 'http',
    isActive: true,
  });
  return proxy.id;
}

export const accessExpectations: Record<string, AccessExpectation> = {
  'health.get': { access: 'public' },

  'auth.register': {
    access: 'public',
    plan: () => ({
      input: { name: 'Matrix Signup', email: uniqueEmail('matrix'), password: STRONG_PASSWORD },
    }),
  },
  'auth.login': {
    access: 'public',
    plan: (w, owner) => ({ input: { email: (owner ?? w.user).email, password: STRONG_PASSWORD } }),
  },
  'auth.refresh': {
    access: 'public',
    plan: async (w, owner) => ({ refreshCookie: await w.freshSession(owner ?? w.user) }),
  },
  'auth.logout': {
    access: 'public',
    plan: async (w, owner) => ({ refreshCookie: await w.freshSession(owner ?? w.user) }),
  },
  'auth.me': { access: 'user' },
  'auth.changePassword': {
    access: 'user',
    // The same password again keeps every matrix account usable for the next cell.
    plan: () => ({ input: { currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD } }),
  },

  'users.me': { access: 'user' },
  'users.updateProfile': {
    access: 'user',
    plan: (w) => ({ input: { headline: `Matrix headline ${w.next()}` } }),
  },

  'proxies.list': { access: 'admin' },
  'proxies.create': {
    access: 'admin',
    plan: () => ({ input: { host: randomHost(), port: 3128, protocol: 'http', isActive: false } }),
  },
  'proxies.update': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createProxy(w), isActive: false } }),
  },
  'proxies.remove': { access: 'admin', plan: async (w) => ({ input: { id: await createProxy(w) } }) },
  'proxies.resetFailures': {
    access: 'admin',
    plan: async (w) => ({ input: { id: await createProxy(w) } }),
  },
  'proxies.bulkStatus': {
    access: 'admin',
    plan: async (w) => ({ input: { isActive: true, ids: [await createProxy(w)] } }),
  },
  'proxies.import': {
    access: 'admin',
    plan: () => ({ input: { text: `${randomHost()}:8080`, activateByDefault: false } }),
  },
};
