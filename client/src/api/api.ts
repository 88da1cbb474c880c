import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { staleTimes } from './cache.ts';
import type { UserSummary } from './contracts.ts';
import { createCacheEffects } from './invalidation.ts';
import type { ApiClient, OptionsProxy } from './trpc.ts';

/**
 * The API's calls (docs/product.md, "The REST contract") as query and mutation options, with their
 * cache times. Screens use only this table, so the procedure behind a call is named in one place;
 * what each mutation makes stale is in invalidation.ts, applied here.
 */
export function createApi(trpc: OptionsProxy, client: ApiClient, queryClient: QueryClient) {
  const effects = createCacheEffects(queryClient, trpc);
  return {
    auth: {
      login: () => trpc.auth.login.mutationOptions(effects('auth.login')),
      register: () => trpc.auth.register.mutationOptions(effects('auth.register')),
      /** What the sign-in and registration pages offer: the sign-up policy, reset by e-mail. */
      options: () => trpc.auth.options.queryOptions(undefined, { staleTime: 0 }),
      /** An invitation link's role and address (a POST: the token stays out of URLs and logs). */
      invitation: () => trpc.auth.invitation.mutationOptions(effects('auth.invitation')),
      forgotPassword: () => trpc.auth.forgotPassword.mutationOptions(effects('auth.forgotPassword')),
      resetPassword: () => trpc.auth.resetPassword.mutationOptions(effects('auth.resetPassword')),
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
      updateProfile: () => trpc.users.updateProfile.mutationOptions(effects('account.updateProfile')),
      changePassword: () => trpc.auth.changePassword.mutationOptions(effects('account.changePassword')),
      /** GET /users/me/export: fetched on demand, never cached. */
      exportData: () => client.users.export.query(),
      deleteAccount: () => trpc.users.deleteAccount.mutationOptions(effects('account.deleteAccount')),
    },
    alerts: {
      mine: () => trpc.alerts.list.queryOptions(undefined, { staleTime: staleTimes.alerts }),
      setStatus: () => trpc.alerts.update.mutationOptions(effects('alerts.setStatus')),
      remove: () => trpc.alerts.remove.mutationOptions(effects('alerts.remove')),
    },
    health: {
      /** GET /health: the engine's and the delivery pipeline's figures, refreshed while shown. */
      get: () => trpc.health.get.queryOptions(undefined, { staleTime: 0, refetchInterval: 10_000 }),
    },
    adminAlerts: {
      all: () => trpc.adminAlerts.list.queryOptions(undefined, { staleTime: staleTimes.alerts }),
      setStatus: () => trpc.adminAlerts.update.mutationOptions(effects('adminAlerts.setStatus')),
      remove: () => trpc.adminAlerts.remove.mutationOptions(effects('adminAlerts.remove')),
    },
    notificationServices: {
      webPushKey: () =>
        trpc.notificationServices.webPushKey.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }),
      create: () => trpc.notificationServices.create.mutationOptions(effects('notificationServices.create')),
      test: () => trpc.notificationServices.test.mutationOptions(effects('notificationServices.test')),
      update: () => trpc.notificationServices.update.mutationOptions(effects('notificationServices.update')),
      remove: () => trpc.notificationServices.remove.mutationOptions(effects('notificationServices.remove')),
      rotateSecret: () =>
        trpc.notificationServices.rotateSecret.mutationOptions(effects('notificationServices.rotateSecret')),
      sendCode: () =>
        trpc.notificationServices.sendVerificationCode.mutationOptions(
          effects('notificationServices.sendCode'),
        ),
      verify: () => trpc.notificationServices.verify.mutationOptions(effects('notificationServices.verify')),
    },
    /** The alert form: own alerts through alerts.*, any user's through adminAlerts.* (admins). */
    alertEditor: {
      get: (id: string) => trpc.alerts.get.queryOptions({ id }, { staleTime: 0 }),
      adminGet: (id: string) => trpc.adminAlerts.get.queryOptions({ id }, { staleTime: 0 }),
      create: () => trpc.alerts.create.mutationOptions(effects('alertEditor.create')),
      update: () => trpc.alerts.update.mutationOptions(effects('alertEditor.update')),
      adminUpdate: () => trpc.adminAlerts.update.mutationOptions(effects('alertEditor.adminUpdate')),
      test: () => trpc.alerts.test.mutationOptions(effects('alertEditor.test')),
    },
    templates: {
      list: () => trpc.templates.list.queryOptions(undefined, { staleTime: staleTimes.templates }),
      get: (id: string) => trpc.templates.get.queryOptions({ id }, { staleTime: staleTimes.templates }),
      create: () => trpc.templates.create.mutationOptions(effects('templates.create')),
      update: () => trpc.templates.update.mutationOptions(effects('templates.update')),
      remove: () => trpc.templates.delete.mutationOptions(effects('templates.remove')),
      test: () => trpc.templates.test.mutationOptions(effects('templates.test')),
      generators: () => trpc.templates.generators.queryOptions(undefined, { staleTime: Infinity }),
      generatorSample: (input: { id: string; sourceUrl?: string }) =>
        trpc.templates.generatorSample.queryOptions(input, { staleTime: 0 }),
    },
    templateGroups: {
      list: () => trpc.templateGroups.list.queryOptions(undefined, { staleTime: staleTimes.templateGroups }),
      create: () => trpc.templateGroups.create.mutationOptions(effects('templateGroups.create')),
    },
    proxies: {
      list: () => trpc.proxies.list.queryOptions(undefined, { staleTime: staleTimes.proxies }),
      create: () => trpc.proxies.create.mutationOptions(effects('proxies.create')),
      update: () => trpc.proxies.update.mutationOptions(effects('proxies.update')),
      remove: () => trpc.proxies.remove.mutationOptions(effects('proxies.remove')),
      resetFailures: () => trpc.proxies.resetFailures.mutationOptions(effects('proxies.resetFailures')),
      bulkStatus: () => trpc.proxies.bulkStatus.mutationOptions(effects('proxies.bulkStatus')),
      import: () => trpc.proxies.import.mutationOptions(effects('proxies.import')),
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
      checkNow: () => trpc.alertInsight.checkNow.mutationOptions(effects('alertInsight.checkNow')),
      snooze: () => trpc.alerts.snooze.mutationOptions(effects('alertInsight.snooze')),
      adminCheckNow: () =>
        trpc.alertInsight.adminCheckNow.mutationOptions(effects('alertInsight.adminCheckNow')),
    },
    /**
     * Watchlists, the archive, the Home/Dashboard figures and the notification preferences. Figures
     * derived from alerts are read fresh on each visit (staleTime 0): a status changed on another
     * screen shows at once, where a 30 s cache would show the old counts.
     */
    watchlists: {
      list: () => trpc.watchlists.list.queryOptions(undefined, { staleTime: 0 }),
      alerts: (id: string) => trpc.watchlists.alerts.queryOptions({ id }, { staleTime: 0 }),
      create: () => trpc.watchlists.create.mutationOptions(effects('watchlists.create')),
      update: () => trpc.watchlists.update.mutationOptions(effects('watchlists.update')),
      remove: () => trpc.watchlists.remove.mutationOptions(effects('watchlists.remove')),
      addAlerts: () => trpc.watchlists.addAlerts.mutationOptions(effects('watchlists.addAlerts')),
      removeAlert: () => trpc.watchlists.removeAlert.mutationOptions(effects('watchlists.removeAlert')),
    },
    archive: {
      page: (page: number) => trpc.archive.list.queryOptions({ page }, { staleTime: 0 }),
      archive: () => trpc.archive.archive.mutationOptions(effects('archive.archive')),
      restore: () => trpc.archive.restore.mutationOptions(effects('archive.restore')),
      purge: () => trpc.archive.purge.mutationOptions(effects('archive.purge')),
    },
    dashboard: {
      summary: () => trpc.dashboard.summary.queryOptions(undefined, { staleTime: 0 }),
    },
    /** Quiet hours: held deliveries, one digest per channel at the window's end. */
    quietHours: {
      get: () =>
        trpc.notificationServices.quietHours.queryOptions(undefined, { staleTime: staleTimes.userSummary }),
      update: () => trpc.notificationServices.setQuietHours.mutationOptions(effects('quietHours.update')),
    },
    preferences: {
      get: () => trpc.users.preferences.queryOptions(undefined, { staleTime: staleTimes.userSummary }),
      update: () => trpc.users.updatePreferences.mutationOptions(effects('preferences.update')),
    },
    /** The Users screen (/admin/users): accounts, invitations and the sign-up policy. */
    users: {
      list: (search: string) =>
        trpc.adminUsers.list.queryOptions(search ? { search } : undefined, { staleTime: 0 }),
      get: (id: string) => trpc.adminUsers.get.queryOptions({ id }, { staleTime: 0 }),
      setDisabled: () => trpc.adminUsers.setDisabled.mutationOptions(effects('users.setDisabled')),
      setLevel: () => trpc.adminUsers.setLevel.mutationOptions(effects('users.setLevel')),
      remove: () => trpc.adminUsers.remove.mutationOptions(effects('users.remove')),
      issuePasswordReset: () =>
        trpc.adminUsers.issuePasswordReset.mutationOptions(effects('users.issuePasswordReset')),
      invitations: () => trpc.invitations.list.queryOptions(undefined, { staleTime: 0 }),
      createInvitation: () => trpc.invitations.create.mutationOptions(effects('invitations.create')),
      revokeInvitation: () => trpc.invitations.revoke.mutationOptions(effects('invitations.revoke')),
      signupSettings: () => trpc.signupSettings.get.queryOptions(undefined, { staleTime: 0 }),
      setSignupPolicy: () => trpc.signupSettings.set.mutationOptions(effects('signupSettings.set')),
    },
    /** Personal API tokens (Settings): managed from the signed-in session only. */
    apiTokens: {
      list: () => trpc.apiTokens.list.queryOptions(undefined, { staleTime: 0 }),
      create: () => trpc.apiTokens.create.mutationOptions(effects('apiTokens.create')),
      revoke: () => trpc.apiTokens.revoke.mutationOptions(effects('apiTokens.revoke')),
    },
  };
}

export type Api = ReturnType<typeof createApi>;
