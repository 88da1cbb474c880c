import type { SettableAlertStatus } from '@resort/shared';
import { queryOptions } from '@tanstack/react-query';
import { staleTimes } from './cache.ts';
import type {
  AlertRecord,
  NotificationRecord,
  NotificationServicePayload,
  NotificationServiceRecord,
  UserSummary,
} from './contracts.ts';
import { createPendingProcedures } from './pending.ts';
import type { ApiClient, OptionsProxy } from './trpc.ts';

export interface StatusChange {
  id: string;
  status: SettableAlertStatus;
}

/**
 * The calls of SPEC.md §7 as query and mutation options, with their cache times. Screens use only
 * this table; each entry names the procedure that carries it, so a procedure landing on the server
 * is a one-line switch from `pending.*` to `trpc.*`.
 */
export function createApi(trpc: OptionsProxy, client: ApiClient) {
  const pending = createPendingProcedures(client);
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
      mine: () => pending.query<AlertRecord[]>('registrations.list', undefined, staleTimes.alerts),
      setStatus: () => pending.mutation<StatusChange, AlertRecord>('registrations.update'),
      remove: () => pending.mutation<{ id: string }, void>('registrations.remove'),
    },
    adminAlerts: {
      all: () => pending.query<AlertRecord[]>('adminRegistrations.list', undefined, staleTimes.alerts),
      setStatus: () => pending.mutation<StatusChange, AlertRecord>('adminRegistrations.update'),
      remove: () => pending.mutation<{ id: string }, void>('adminRegistrations.remove'),
    },
    notificationServices: {
      create: () =>
        pending.mutation<NotificationServicePayload, NotificationServiceRecord>(
          'notificationServices.create',
        ),
      test: () =>
        pending.mutation<NotificationServicePayload, { message?: string } | null>(
          'notificationServices.test',
        ),
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
      history: (limit: number) =>
        pending.query<NotificationRecord[], { limit: number }>('notifications.history', { limit }),
    },
  };
}

export type Api = ReturnType<typeof createApi>;
