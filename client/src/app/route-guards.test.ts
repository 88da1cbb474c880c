import type { AuthResult, Role } from '@resort/shared';
import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { waitFor } from '@testing-library/react';
import { createTRPCClient } from '@trpc/client';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApi } from '@/api/api.ts';
import { type AppRouter, createOptionsProxy, createQueryClient } from '@/api/trpc.ts';
import { routeTree } from '@/routeTree.gen.ts';
import { createSession, createSessionStore } from '@/session/session-store.ts';
import { answerLink } from '@/test/api-harness.tsx';

/** The real route tree and guards; the API answers nothing (guards read only the session). */
async function land(path: string, roles: Role[] | null) {
  const session = createSessionStore({ storage: localStorage });
  if (roles) {
    const result: AuthResult = {
      tokens: { accessToken: 't', expiresIn: 900 },
      user: { id: 'u1', name: 'Ada', email: 'ada@example.com', roles },
    };
    session.set(createSession(result, Date.now()));
  }
  const client = createTRPCClient<AppRouter>({ links: [answerLink({}, [])] });
  const queryClient = createQueryClient();
  const api = createApi(createOptionsProxy(client, queryClient), client, queryClient);
  const router = createRouter({
    routeTree,
    context: { queryClient, api, session },
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  // A redirect starts a new navigation; wait until the router settles on its final location.
  await waitFor(() => {
    if (router.state.status !== 'idle' || router.state.isLoading) throw new Error('still navigating');
  });
  return router.state.location.href;
}

describe('route guards', () => {
  beforeEach(() => localStorage.clear());

  it('sends a signed-out visitor to /login, remembering where they were going', async () => {
    expect(await land('/alerts', null)).toBe('/login?redirect=%2Falerts');
    expect(await land('/settings', null)).toBe('/login?redirect=%2Fsettings');
    expect(await land('/admin/templates', null)).toBe('/login?redirect=%2Fadmin%2Ftemplates');
    expect(await land('/', null)).toBe('/login?redirect=%2F');
  });

  it('leaves the public pages public', async () => {
    expect(await land('/login', null)).toBe('/login');
    expect(await land('/register', null)).toBe('/register');
    expect(await land('/unauthorized', null)).toBe('/unauthorized');
  });

  it('sends a signed-in user away from /register and /login', async () => {
    expect(await land('/register', ['user'])).toBe('/');
    expect(await land('/login?redirect=%2Falerts', ['user'])).toBe('/alerts');
  });

  it('redirects the old configurator paths and /watchers', async () => {
    expect(await land('/configure', ['user'])).toBe('/settings');
    expect(await land('/configure/notifications', ['user'])).toBe('/settings');
    expect(await land('/configure/watchers', ['user'])).toBe('/configure/alerts');
    expect(await land('/configure/registrations?alert=a1', ['user'])).toBe('/configure/alerts?alert=a1');
    expect(await land('/watchers', ['user'])).toBe('/alerts');
  });

  it('keeps /admin for admins and super admins; others go to /unauthorized', async () => {
    expect(await land('/admin', ['user'])).toBe('/unauthorized');
    expect(await land('/admin/proxies', ['user'])).toBe('/unauthorized');
    expect(await land('/admin', ['user', 'admin'])).toBe('/admin/templates');
    expect(await land('/admin/alerts', ['super_admin'])).toBe('/admin/alerts');
  });

  it('redirects unknown paths to /', async () => {
    expect(await land('/no/such/page', ['user'])).toBe('/');
    expect(await land('/no/such/page', null)).toBe('/login?redirect=%2F');
  });
});
