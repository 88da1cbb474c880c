import type { QueryClient } from '@tanstack/react-query';
import { type Api, createApi } from '@/api/api.ts';
import { type ApiClient, createApiClient, createOptionsProxy, createQueryClient } from '@/api/trpc.ts';
import { browserLock, createSessionManager, type SessionManager } from '@/session/session-manager.ts';
import { createSessionStore, type SessionStore } from '@/session/session-store.ts';

/** What every route's beforeLoad and loader may use (TanStack Router context). */
export interface RouterContext {
  queryClient: QueryClient;
  api: Api;
  session: SessionStore;
}

export interface AppServices extends RouterContext {
  client: ApiClient;
  manager: SessionManager;
}

/** The composition root of the SPA: one session store, one tRPC client, one query cache. */
export function createAppServices(storage: Storage = window.localStorage): AppServices {
  const session = createSessionStore({ storage });
  const client = createApiClient({ getAccessToken: () => session.get()?.tokens.accessToken ?? null });
  const queryClient = createQueryClient({ onUnauthorized: () => session.clear() });
  const api = createApi(createOptionsProxy(client, queryClient), client, queryClient);
  const manager = createSessionManager({
    store: session,
    refresh: () => client.auth.refresh.mutate(),
    loadProfile: async () => (await queryClient.fetchQuery({ ...api.account.summary(), staleTime: 0 })).user,
    revoke: () => client.auth.logout.mutate(),
    withLock: browserLock,
  });

  // A different account (or none) must never see the previous account's cached answers.
  let userId = session.get()?.user.id ?? null;
  session.subscribe((next) => {
    const nextId = next?.user.id ?? null;
    if (nextId !== userId) queryClient.clear();
    userId = nextId;
  });

  return { queryClient, api, session, client, manager };
}
