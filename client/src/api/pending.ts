import { queryOptions } from '@tanstack/react-query';
import { getUntypedClient } from '@trpc/client';
import type { ApiClient } from './trpc.ts';

/**
 * Calls to procedures the server does not have yet (SPEC.md §7 contract). The path is the one the
 * module will expose; until it does, the server answers "No procedure found" and the screen shows
 * its error state. The keys follow tRPC's own key shape, so switching an adapter line to
 * `trpc.x.y.queryOptions()` keeps cached entries and invalidations working.
 */
export function createPendingProcedures(client: ApiClient) {
  const untyped = getUntypedClient(client);
  return {
    query<TOutput, TInput = undefined>(path: string, input: TInput, staleTime?: number) {
      return queryOptions({
        queryKey: [
          path.split('.'),
          input === undefined ? { type: 'query' } : { input, type: 'query' },
        ] as const,
        queryFn: ({ signal }) => untyped.query(path, input, { signal }) as Promise<TOutput>,
        staleTime,
      });
    },
    mutation<TInput, TOutput>(path: string) {
      return {
        mutationKey: [path.split('.')] as const,
        mutationFn: (input: TInput) => untyped.mutation(path, input) as Promise<TOutput>,
      };
    },
  };
}
