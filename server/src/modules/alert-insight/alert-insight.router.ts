import { alertIdInput, alertInsightSchema, checkNowResultSchema } from '@resort/shared';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { adminProcedure, authedProcedure, router } from '../../platform/trpc/trpc.ts';

const owner = (ctx: { auth: { userId: string } }) => ({ userId: ctx.auth.userId, admin: false });
const admin = (ctx: { auth: { userId: string } }) => ({ userId: ctx.auth.userId, admin: true });

/** The alert page: the owner's through `get`/`checkNow`, any user's for admins through `admin*`. */
export const alertInsightRouter = router({
  get: authedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/registrations/:id/insight',
        summary: 'What the alert saw, when and why: polls, timeline, last answer, explanation, notifications',
      },
    })
    .input(alertIdInput)
    .output(syncParse(alertInsightSchema))
    .query(({ ctx, input }) => ctx.services.alertInsight.get(owner(ctx), input.id)),
  checkNow: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/registrations/:id/check',
        status: 202,
        errors: [409],
        summary: 'Poll the alert now through the engine (once per 30 s)',
      },
    })
    .input(alertIdInput)
    .output(syncParse(checkNowResultSchema))
    .mutation(({ ctx, input }) => ctx.services.alertInsight.checkNow(owner(ctx), input.id)),
  adminGet: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/admin/registrations/:id/insight',
        summary: "Any user's alert page data (admins)",
      },
    })
    .input(alertIdInput)
    .output(syncParse(alertInsightSchema))
    .query(({ ctx, input }) => ctx.services.alertInsight.get(admin(ctx), input.id)),
  adminCheckNow: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/admin/registrations/:id/check',
        status: 202,
        errors: [409],
        summary: "Poll any user's alert now (admins)",
      },
    })
    .input(alertIdInput)
    .output(syncParse(checkNowResultSchema))
    .mutation(({ ctx, input }) => ctx.services.alertInsight.checkNow(admin(ctx), input.id)),
});
