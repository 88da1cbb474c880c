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
    adminAlerts: {
      all: () => trpc.adminRegistrations.list.queryOptions(undefined, { staleTime: staleTimes.alerts }),
      setStatus: () => trpc.adminRegistrations.update.mutationOptions(),
      remove: () => trpc.adminRegistrations.remove.mutationOptions(),
    },
    notificationServices: {
      create: () => trpc.notificationServices.create.mutationOptions(),
      test: () => trpc.notificationServices.test.mutationOptions(),
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
  };
}

export type Api = ReturnType<typeof createApi>;
