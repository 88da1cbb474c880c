import { isAdminRole, type LiveEvent } from '@resort/shared';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useMemo, useRef } from 'react';
import { type CachedQuery, cachedQueries, liveEventEffects, pollListRefresh } from '@/api/invalidation.ts';
import { type OptionsProxy, useTRPC } from '@/api/trpc.ts';
import { useSession } from '@/session/use-session.ts';
import { canNotify } from './push-preference.ts';

/** Events arriving together are applied together. */
const BATCH_MS = 100;

type Key = readonly unknown[];

/**
 * Turns live events into fresh screens: each event marks stale what api/invalidation.ts says it
 * changes (liveEventEffects), so those screens refetch within a moment, with no Refresh. "ready" (a
 * new or resumed stream) catches up on whatever happened while disconnected.
 */
export function createInvalidator(queryClient: QueryClient, trpc: OptionsProxy) {
  const queries = cachedQueries(trpc);
  const pending = new Map<string, Key>();
  // Keys a "ready" refreshes, with the time their answers must be newer than to be kept.
  const catchUp = new Map<string, { key: Key; since: number }>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastPollListRefresh = 0;
  // The first "ready" is this page's first stream: answers fetched since it was opened missed
  // nothing; later ones follow a drop, after which every answer may be behind.
  const openedAt = Date.now();
  let resumed = false;
  const add = (key: Key, catchingUp: boolean) => {
    const id = JSON.stringify(key);
    if (!catchingUp) pending.set(id, key);
    else if (!pending.has(id)) catchUp.set(id, { key, since: resumed ? Number.POSITIVE_INFINITY : openedAt });
  };
  const mark = (groups: readonly CachedQuery[], alertId: string | null, catchingUp = false) => {
    for (const group of groups) for (const key of queries[group](alertId)) add(key, catchingUp);
  };
  function flush() {
    timer = null;
    const keys = [...pending.values()];
    const stale = [...catchUp.entries()].filter(([id]) => !pending.has(id)).map(([, entry]) => entry);
    pending.clear();
    catchUp.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
    // An answer still in flight is not cancelled and asked again (the page's first load would
    // wait twice); one that arrived before the stream opened is fetched again.
    for (const { key, since } of stale)
      void queryClient.invalidateQueries(
        { queryKey: key, predicate: (query) => query.state.dataUpdatedAt < since },
        { cancelRefetch: false },
      );
  }
  return (event: LiveEvent) => {
    if (event.kind === 'ready') {
      mark(liveEventEffects.ready, null, true);
      resumed = true;
    } else {
      mark(liveEventEffects[event.kind], event.registrationId);
      const now = Date.now();
      if (event.kind === 'poll' && now - lastPollListRefresh >= pollListRefresh.atMostEveryMs) {
        lastPollListRefresh = now;
        mark(pollListRefresh.stale, null);
      }
    }
    if (timer === null) timer = setTimeout(flush, BATCH_MS);
  };
}

function showBrowserNotification(event: LiveEvent, pushPreference: boolean) {
  if (event.kind !== 'notification' || event.notificationKind !== 'MATCH' || !canNotify(pushPreference))
    return;
  try {
    const n = new Notification('Resort Alerts: availability found', {
      body: event.message ?? '',
      tag: event.notificationId ?? undefined,
    });
    n.onclick = () => {
      window.focus();
      if (event.registrationId) window.location.assign(`/alerts/${event.registrationId}`);
    };
  } catch {
    // Some browsers allow notifications only from a service worker; the page still updates.
  }
}

/** Subscribes the signed-in user to live events (admins: every user's, for the admin views). */
export function LiveUpdates() {
  const session = useSession();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const apply = useMemo(() => createInvalidator(queryClient, trpc), [queryClient, trpc]);
  const userId = session?.user.id ?? null;
  const admin = isAdminRole(session?.user.roles ?? []);
  // The Settings preference decides (push is on by default).
  const preferences = useQuery({ ...trpc.users.preferences.queryOptions(), enabled: userId !== null });
  const push = preferences.data?.push ?? true;
  // Event ids already shown as browser notifications (for this tab's user).
  const seen = useRef({ userId, ids: new Set<string>() });
  if (seen.current.userId !== userId) seen.current = { userId, ids: new Set() };
  useSubscription(
    trpc.live.events.subscriptionOptions(
      { scope: admin ? 'all' : 'mine' },
      {
        enabled: userId !== null,
        onData: (tracked) => {
          const event = tracked.data;
          apply(event);
          // A resumed stream may replay an event already shown: one browser notification per event.
          const shown = seen.current.ids;
          if (event.userId !== userId || event.id === null || shown.has(event.id)) return;
          if (shown.size > 1000) shown.clear();
          shown.add(event.id);
          showBrowserNotification(event, push);
        },
      },
    ),
  );
  return null;
}
