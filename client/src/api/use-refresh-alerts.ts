import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** The procedures whose answers change when an alert, a watchlist or the archive changes. */
const affected = new Set([
  'watchlists',
  'archive',
  'dashboard',
  'registrations',
  'adminRegistrations',
  'users',
]);

/** Marks every list, count and summary that shows alerts stale, so the screens refetch them. */
export function useRefreshAlerts(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient.invalidateQueries({
        predicate: (query) => {
          const path = query.queryKey[0];
          return Array.isArray(path) && affected.has(String(path[0]));
        },
      }),
    [queryClient],
  );
}
