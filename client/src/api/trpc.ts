import type { AppRouter } from '@resort/server/http/router';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import {
  createTRPCClient,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCClient,
} from '@trpc/client';
import { createTRPCContext, createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { errorStatus, fetchWithErrorText } from './http.ts';

export type { AppRouter };
export type ApiClient = TRPCClient<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * The bearer token is read per request, so a renewed token is used at once. Subscriptions (live
 * events) run over server-sent events; an EventSource cannot send headers, so the token travels as
 * tRPC connection params, read afresh on every (re)connection.
 */
export function createApiClient(opts: { url?: string; getAccessToken: () => string | null }): ApiClient {
  const url = opts.url ?? '/trpc';
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url,
          connectionParams: () => {
            const token = opts.getAccessToken();
            return token ? { token } : {};
          },
        }),
        false: httpBatchLink({
          url,
          fetch: fetchWithErrorText,
          headers: () => {
            const token = opts.getAccessToken();
            return token ? { authorization: `Bearer ${token}` } : {};
          },
        }),
      }),
    ],
  });
}

/**
 * Query defaults (docs/product.md, "The REST contract"): no refetch on window focus. Client errors (4xx) are not retried;
 * a 401 on a query means the stored token is no longer accepted, so the session ends.
 */
export function createQueryClient(opts: { onUnauthorized?: () => void } = {}): QueryClient {
  const onError = (error: unknown) => {
    if (errorStatus(error) === 401) opts.onUnauthorized?.();
  };
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({}),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failures, error) => {
          const status = errorStatus(error);
          return failures < 2 && (status === null || status >= 500);
        },
      },
      mutations: { retry: false },
    },
  });
}

export function createOptionsProxy(client: ApiClient, queryClient: QueryClient) {
  return createTRPCOptionsProxy<AppRouter>({ client, queryClient });
}
export type OptionsProxy = ReturnType<typeof createOptionsProxy>;
