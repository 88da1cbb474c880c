import {
  archiveListInput,
  archivePageSchema,
  archiveResultSchema,
  archiveSelectionInput,
  dashboardSummarySchema,
  noContent,
  watchlistAddAlertsInput,
  watchlistAlertsSchema,
  watchlistCreateInput,
  watchlistIdInput,
  watchlistListSchema,
  watchlistRemoveAlertInput,
  watchlistSchema,
  watchlistUpdateInput,
} from '@resort/shared';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { authedProcedure, router } from '../../platform/trpc/trpc.ts';

/** The caller's own watchlists; another user's id answers 404, as a missing one does. */
export const watchlistsRouter = router({
  list: authedProcedure
    .meta({ rest: { method: 'GET', path: '/watchlists' } })
    .output(syncParse(watchlistListSchema))
    .query(({ ctx }) => ctx.services.watchlists.list(ctx.auth.userId)),
  get: authedProcedure
    .meta({ rest: { method: 'GET', path: '/watchlists/:id' } })
    .input(watchlistIdInput)
    .output(syncParse(watchlistSchema))
    .query(({ ctx, input }) => ctx.services.watchlists.get(ctx.auth.userId, input.id)),
  create: authedProcedure
    .meta({ rest: { method: 'POST', path: '/watchlists', status: 201 } })
    .input(watchlistCreateInput)
    .output(syncParse(watchlistSchema))
    .mutation(({ ctx, input }) => ctx.services.watchlists.create(ctx.auth.userId, input)),
  update: authedProcedure
    .meta({ rest: { method: 'PATCH', path: '/watchlists/:id' } })
    .input(watchlistUpdateInput)
    .output(syncParse(watchlistSchema))
    .mutation(({ ctx, input }) => ctx.services.watchlists.update(ctx.auth.userId, input)),
  remove: authedProcedure
    .meta({ rest: { method: 'DELETE', path: '/watchlists/:id' } })
    .input(watchlistIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.watchlists.remove(ctx.auth.userId, input.id)),
  alerts: authedProcedure
    .meta({ rest: { method: 'GET', path: '/watchlists/:id/registrations' } })
    .input(watchlistIdInput)
    .output(syncParse(watchlistAlertsSchema))
    .query(({ ctx, input }) => ctx.services.watchlists.alerts(ctx.auth.userId, input.id)),
  addAlerts: authedProcedure
    .meta({ rest: { method: 'POST', path: '/watchlists/:id/registrations' } })
    .input(watchlistAddAlertsInput)
    .output(syncParse(watchlistSchema))
    .mutation(({ ctx, input }) =>
      ctx.services.watchlists.addAlerts(ctx.auth.userId, input.id, input.registrationIds),
    ),
  removeAlert: authedProcedure
    .meta({ rest: { method: 'DELETE', path: '/watchlists/:id/registrations/:registrationId' } })
    .input(watchlistRemoveAlertInput)
    .output(syncParse(watchlistSchema))
    .mutation(({ ctx, input }) =>
      ctx.services.watchlists.removeAlert(ctx.auth.userId, input.id, input.registrationId),
    ),
});

/** The caller's archived alerts: list 25 a page, archive by hand, restore, delete for good. */
export const archiveRouter = router({
  list: authedProcedure
    .meta({ rest: { method: 'GET', path: '/archive' } })
    .input(archiveListInput)
    .output(syncParse(archivePageSchema))
    .query(({ ctx, input }) => ctx.services.archive.list(ctx.auth.userId, input?.page ?? 1)),
  archive: authedProcedure
    .meta({ rest: { method: 'POST', path: '/archive', errors: [404] } })
    .input(archiveSelectionInput)
    .output(syncParse(archiveResultSchema))
    .mutation(({ ctx, input }) => ctx.services.archive.archive(ctx.auth.userId, input.registrationIds)),
  restore: authedProcedure
    .meta({ rest: { method: 'POST', path: '/archive/restore', errors: [404] } })
    .input(archiveSelectionInput)
    .output(syncParse(archiveResultSchema))
    .mutation(({ ctx, input }) => ctx.services.archive.restore(ctx.auth.userId, input.registrationIds)),
  purge: authedProcedure
    .meta({ rest: { method: 'POST', path: '/archive/delete', errors: [404] } })
    .input(archiveSelectionInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.archive.purge(ctx.auth.userId, input.registrationIds)),
});

/** Home and Dashboard figures, computed from the caller's alerts and watchlists. */
export const dashboardRouter = router({
  summary: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/dashboard' } })
    .output(syncParse(dashboardSummarySchema))
    .query(({ ctx }) => ctx.services.watchlists.summary(ctx.auth.userId)),
});
