import type { LiveEvent } from '@resort/shared';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { OptionsProxy } from './trpc.ts';

/**
 * The one map of what goes stale: which cached answers each mutation of the API table (api.ts) and
 * each live event (app/live-updates.tsx) makes stale. Screens never invalidate by hand: a mutation
 * applies its entry before it resolves, so a screen that awaits it shows fresh data at once.
 */

/**
 * The cached answers, in the groups a change makes stale. `id` narrows a group to one alert (the
 * alert page) or one template where the group allows it; without it the group covers them all.
 */
export function cachedQueries(trpc: OptionsProxy) {
  return {
    /** The alert list (/alerts) and the admin list (/admin/alerts). */
    alertLists: () => [trpc.alerts.list.queryKey(), trpc.adminAlerts.list.queryKey()],
    /** The alert page (/alerts/{id}), the owner's and the admin's read. */
    alertPage: (id?: string | null) =>
      id
        ? [trpc.alertInsight.get.queryKey({ id }), trpc.alertInsight.adminGet.queryKey({ id })]
        : [trpc.alertInsight.pathKey()],
    /** GET /users/me: the account card and the alert form's notification services. */
    accountSummary: () => [trpc.users.me.queryKey()],
    dashboard: () => [trpc.dashboard.summary.queryKey()],
    watchlists: () => [trpc.watchlists.pathKey()],
    archive: () => [trpc.archive.pathKey()],
    notifications: () => [trpc.notifications.history.pathKey()],
    profile: () => [trpc.auth.me.queryKey()],
    preferences: () => [trpc.users.preferences.queryKey()],
    quietHours: () => [trpc.notificationServices.quietHours.queryKey()],
    templateList: () => [trpc.templates.list.queryKey()],
    template: (id?: string | null) =>
      id ? [trpc.templates.get.queryKey({ id })] : [trpc.templates.get.pathKey()],
    templateGroups: () => [trpc.templateGroups.list.queryKey()],
    proxies: () => [trpc.proxies.list.queryKey()],
    apiTokens: () => [trpc.apiTokens.list.queryKey()],
    /** The Users screen: the account list and each account's page. */
    users: () => [trpc.adminUsers.pathKey()],
    invitations: () => [trpc.invitations.list.queryKey()],
    signupSettings: () => [trpc.signupSettings.get.queryKey()],
  } satisfies Record<string, (id?: string | null) => QueryKey[]>;
}
export type CachedQuery = keyof ReturnType<typeof cachedQueries>;

/** What a mutation does to the cache. */
export interface CacheEffect {
  /**
   * Marked stale when the mutation settles: refetched at once where a screen shows them (the
   * mutation resolves after that), on the next visit otherwise.
   */
  stale?: readonly CachedQuery[];
  /** On success, the mutation's answer is the new value of this query (no refetch). */
  fill?: CachedQuery;
  /** On success, gone with what the mutation removed. */
  drop?: CachedQuery;
}

/** Everything that shows alerts: the lists, their counts and summaries, watchlists and the archive. */
const alertViews = ['alertLists', 'accountSummary', 'dashboard', 'watchlists', 'archive'] as const;
const none: CacheEffect = {};

/**
 * Each mutation of the API table, by its name there. `id` is the mutation's `id` input, or for a
 * `fill` the answer's `id`.
 */
export const mutationEffects = {
  'auth.login': none,
  'auth.register': none,
  'auth.invitation': none,
  'auth.forgotPassword': none,
  'auth.resetPassword': none,
  'account.deleteAccount': none,
  'account.updateProfile': { fill: 'profile', stale: ['accountSummary'] },
  'account.changePassword': none,
  'alerts.setStatus': { stale: alertViews },
  'alerts.remove': { stale: alertViews },
  'adminAlerts.setStatus': { stale: alertViews },
  'adminAlerts.remove': { stale: alertViews },
  'alertEditor.create': { stale: alertViews },
  'alertEditor.update': { stale: alertViews },
  'alertEditor.adminUpdate': { stale: alertViews },
  'alertEditor.test': none,
  'alertInsight.checkNow': { stale: ['alertPage'] },
  'alertInsight.adminCheckNow': { stale: ['alertPage'] },
  'alertInsight.snooze': { stale: ['alertPage', ...alertViews] },
  'watchlists.create': { stale: alertViews },
  'watchlists.update': { stale: alertViews },
  'watchlists.remove': { stale: alertViews },
  'watchlists.addAlerts': { stale: alertViews },
  'watchlists.removeAlert': { stale: alertViews },
  'archive.archive': { stale: alertViews },
  'archive.restore': { stale: alertViews },
  'archive.purge': { stale: alertViews },
  'notificationServices.create': { stale: ['accountSummary'] },
  'notificationServices.update': { stale: ['accountSummary'] },
  'notificationServices.remove': { stale: ['accountSummary'] },
  'notificationServices.rotateSecret': { stale: ['accountSummary'] },
  'notificationServices.test': none,
  'notificationServices.sendCode': { stale: ['accountSummary'] },
  'notificationServices.verify': { stale: ['accountSummary'] },
  'preferences.update': { fill: 'preferences' },
  'quietHours.update': { fill: 'quietHours' },
  'apiTokens.create': { stale: ['apiTokens'] },
  'apiTokens.revoke': { stale: ['apiTokens'] },
  'templates.create': { fill: 'template', stale: ['templateList'] },
  'templates.update': { fill: 'template', stale: ['templateList'] },
  'templates.remove': { drop: 'template', stale: ['templateList'] },
  'templates.test': none,
  'templateGroups.create': { stale: ['templateGroups'] },
  'proxies.create': { stale: ['proxies'] },
  'proxies.update': { stale: ['proxies'] },
  'proxies.remove': { stale: ['proxies'] },
  'proxies.resetFailures': { stale: ['proxies'] },
  'proxies.bulkStatus': { stale: ['proxies'] },
  'proxies.import': { stale: ['proxies'] },
  // A disabled or deleted account's alerts are paused or gone: every alert view is stale too.
  'users.setDisabled': { stale: ['users', ...alertViews] },
  'users.setLevel': { stale: ['users'] },
  'users.remove': { stale: ['users', ...alertViews] },
  'users.issuePasswordReset': none,
  'invitations.create': { stale: ['invitations'] },
  'invitations.revoke': { stale: ['invitations'] },
  'signupSettings.set': { fill: 'signupSettings' },
} as const satisfies Record<string, CacheEffect>;
export type MutationName = keyof typeof mutationEffects;

/**
 * Each live event: what it says changed. `id` is the event's alert ("ready", a new or resumed
 * stream, has none: every alert page catches up).
 */
export const liveEventEffects = {
  ready: ['alertLists', 'accountSummary', 'dashboard', 'alertPage', 'notifications'],
  notification: ['notifications', 'accountSummary', 'dashboard', 'alertPage'],
  delivery: ['notifications', 'accountSummary', 'dashboard', 'alertPage'],
  status: ['alertLists', 'accountSummary', 'dashboard', 'alertPage'],
  health: ['alertLists', 'accountSummary', 'dashboard', 'alertPage'],
  poll: ['alertPage'],
} as const satisfies Record<LiveEvent['kind'], readonly CachedQuery[]>;

/** Polls come often: they refresh the alert lists (their activity column) at most this often. */
export const pollListRefresh = { stale: ['alertLists'], atMostEveryMs: 5000 } as const satisfies {
  stale: readonly CachedQuery[];
  atMostEveryMs: number;
};

const idOf = (value: unknown): string | null => {
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id : null;
};

/** The mutation options that apply an entry: the mutation resolves once the shown answers are fresh. */
export function createCacheEffects(queryClient: QueryClient, trpc: OptionsProxy) {
  const queries = cachedQueries(trpc);
  return (name: MutationName) => {
    const effect: CacheEffect = mutationEffects[name];
    return {
      onSuccess: (answer: unknown, variables: unknown) => {
        if (effect.fill) {
          const [key] = queries[effect.fill](idOf(answer) ?? idOf(variables));
          if (key) queryClient.setQueryData(key, answer);
        }
        if (effect.drop) {
          for (const queryKey of queries[effect.drop](idOf(variables)))
            queryClient.removeQueries({ queryKey });
        }
      },
      // A failed change may still have changed something (one of several deletions, say), or show
      // that the cache is behind (a 404): the stale answers are fetched again either way.
      onSettled: async (_answer: unknown, _error: unknown, variables: unknown) => {
        const stale = (effect.stale ?? []).flatMap((group) => queries[group](idOf(variables)));
        await Promise.all(stale.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      },
    };
  };
}
