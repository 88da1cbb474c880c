import { queryOptions } from '@tanstack/react-query';
import { staleTimes } from './cache.ts';
import type { UserSummary } from './contracts.ts';
import type { ApiClient, OptionsProxy } from './trpc.ts';

/**
 * The calls of SPEC.md §7 as query and mutation options, with their cache times (§7, §9). Screens
 * use only this table, so the procedure behind a call is named in one place.
 */
export function createApi(trpc: OptionsProxy, client: ApiClient) {
  return {
    auth: {
      login: () => trpc.auth.login.mutationOptions(),
      register: () => trpc.auth.register.mutationOptions(),
    },
    account: {
      /** GET /users/me: also used at start-up; the server still types the lists loosely. */
      summary: () =>
        queryOptions({
          queryKey: trpc.users.me.queryKey(),
          queryFn: ({ signal }) => client.users.me.query(undefined, { signal }) as Promise<UserSummary>,
          staleTime: staleTimes.userSummary,
        }),
      profile: () => trpc.auth.me.queryOptions(undefined, { staleTime: staleTimes.userSummary }),
      updateProfile: () => trpc.users.updateProfile.mutationOptions(),
      changePassword: () => trpc.auth.changePassword.mutationOptions(),
    },
    alerts: {
      mine: () => trpc.registrations.list.queryOptions(undefined, { staleTime: staleTimes.alerts }),
      setStatus: () => trpc.registrations.update.mutationOptions(),
      remove: () => trpc.registrations.remove.mutationOptions(),
    },
    health: {
      /** GET /health: the engine's and the delivery pipeline's figures, refreshed while shown. */
      get: () => trpc.health.get.queryOptions(undefined, { staleTime: 0, refetchInterval: 10_000 }),
    },
    adminAlerts: {
      all: () => trpc.adminRegistrations.list.queryOptions(undefined, { staleTime: staleTimes.alerts }),
      setStatus: () => trpc.adminRegistrations.update.mutationOptions(),
      remove: () => trpc.adminRegistrations.remove.mutationOptions(),
    },
    notificationServices: {
      create: () => trpc.notificationServices.create.mutationOptions(),
      test: () => trpc.notificationServices.test.mutationOptions(),
      update: () => trpc.notificationServices.update.mutationOptions(),
      remove: () => trpc.notificationServices.remove.mutationOptions(),
      rotateSecret: () => trpc.notificationServices.rotateSecret.mutationOptions(),
    },
    /** The alert form: own alerts through registrations.*, any user's through adminRegistrations.* (admins). */
    alertEditor: {
      get: (id: string) => trpc.registrations.get.queryOptions({ id }, { staleTime: 0 }),
      adminGet: (id: string) => trpc.adminRegistrations.get.queryOptions({ id }, { staleTime: 0 }),
      create: () => trpc.registrations.create.mutationOptions(),
      update: () => trpc.registrations.update.mutationOptions(),
      adminUpdate: () => trpc.adminRegistrations.update.mutationOptions(),
      test: () => trpc.registrations.test.mutationOptions(),
    },
    templates: {
      list: () => trpc.templates.list.queryOptions(undefined, { staleTime: staleTimes.templates }),
      get: (id: string) => trpc.templates.get.queryOptions({ id }, { staleTime: staleTimes.templates }),
      create: () => trpc.templates.create.mutationOptions(),
      update: () => trpc.templates.update.mutationOptions(),
      remove: () => trpc.templates.delete.mutationOptions(),
      test: () => trpc.templates.test.mutationOptions(),
      generators: () => trpc.templates.generators.queryOptions(undefined, { staleTime: Infinity }),
      generatorSample: (input: { id: string; sourceUrl?: string }) =>
        trpc.templates.generatorSample.queryOptions(input, { staleTime: 0 }),
    },
    templateGroups: {
      list: () => trpc.templateGroups.list.queryOptions(undefined, { staleTime: staleTimes.templateGroups }),
      create: () => trpc.templateGroups.create.mutationOptions(),
    },
    proxies: {
      list: () => trpc.proxies.list.queryOptions(undefined, { staleTime: staleTimes.proxies }),
      create: () => trpc.proxies.create.mutationOptions(),
      update: () => trpc.proxies.update.mutationOptions(),
      remove: () => trpc.proxies.remove.mutationOptions(),
      resetFailures: () => trpc.proxies.resetFailures.mutationOptions(),
      bulkStatus: () => trpc.proxies.bulkStatus.mutationOptions(),
      import: () => trpc.proxies.import.mutationOptions(),
    },
    notifications: {
      history: (limit: number) => trpc.notifications.history.queryOptions({ limit }),
    },
    /** The alert page (/alerts/{id}): the owner's through alertInsight.get, any user's for admins. */
    alertInsight: {
      get: (id: string, admin: boolean) =>
        admin
          ? trpc.alertInsight.adminGet.queryOptions({ id }, { staleTime: 0 })
          : trpc.alertInsight.get.queryOptions({ id }, { staleTime: 0 }),
      checkNow: () => trpc.alertInsight.checkNow.mutationOptions(),
      adminCheckNow: () => trpc.alertInsight.adminCheckNow.mutationOptions(),
    },
    /**
     * Watchlists, the archive, the Home/Dashboard figures and the notification preferences. Figures
     * derived from alerts are read fresh on each visit (staleTime 0): a status changed on another
     * screen shows at once, where a 30 s cache would show the old counts.
     */
    watchlists: {
      list: () => trpc.watchlists.list.queryOptions(undefined, { staleTime: 0 }),
      alerts: (id: string) => trpc.watchlists.alerts.queryOptions({ id }, { staleTime: 0 }),
      create: () => trpc.watchlists.create.mutationOptions(),
      update: () => trpc.watchlists.update.mutationOptions(),
      remove: () => trpc.watchlists.remove.mutationOptions(),
      addAlerts: () => trpc.watchlists.addAlerts.mutationOptions(),
      removeAlert: () => trpc.watchlists.removeAlert.mutationOptions(),
    },
    archive: {
      page: (page: number) => trpc.archive.list.queryOptions({ page }, { staleTime: 0 }),
      archive: () => trpc.archive.archive.mutationOptions(),
      restore: () => trpc.archive.restore.mutationOptions(),
      purge: () => trpc.archive.purge.mutationOptions(),
    },
    dashboard: {
      summary: () => trpc.dashboard.summary.queryOptions(undefined, { staleTime: 0 }),
    },
    preferences: {
      get: () => trpc.users.preferences.queryOptions(undefined, { staleTime: staleTimes.userSummary }),
      update: () => trpc.users.updatePreferences.mutationOptions(),
    },
    /** Personal API tokens (Settings): managed from the signed-in session only. */
    apiTokens: {
      list: () => trpc.apiTokens.list.queryOptions(undefined, { staleTime: 0 }),
      listKey: () => trpc.apiTokens.list.queryKey(),
      create: () => trpc.apiTokens.create.mutationOptions(),
      revoke: () => trpc.apiTokens.revoke.mutationOptions(),
    },
  };
}

export type Api = ReturnType<typeof createApi>;
