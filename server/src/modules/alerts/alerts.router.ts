import {
  adminAlertRowSchema,
  adminUpdateAlertInput,
  alertIdInput,
  alertPayloadSchema,
  alertRowSchema,
  alertSchema,
  alertTestInput,
  alertTestResultSchema,
  noContent,
  snoozeAlertInput,
  updateAlertInput,
} from '@resort/shared';
import { z } from 'zod';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { adminProcedure, authedProcedure, router } from '../../platform/trpc/trpc.ts';

const owner = (ctx: { auth: { userId: string } }) => ({ userId: ctx.auth.userId, admin: false });
const admin = (ctx: { auth: { userId: string } }) => ({ userId: ctx.auth.userId, admin: true });

/** The caller's own alerts: another user's id answers 404. */
export const alertsRouter = router({
  list: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/registrations' } })
    .output(syncParse(z.array(alertRowSchema)))
    .query(({ ctx }) => ctx.services.alerts.listForUser(ctx.auth.userId)),
  get: authedProcedure
    .meta({ rest: { method: 'GET', path: '/registrations/:id' } })
    .input(alertIdInput)
    .output(syncParse(alertSchema))
    .query(({ ctx, input }) => ctx.services.alerts.get(owner(ctx), input.id)),
  create: authedProcedure
    .meta({ rest: { method: 'POST', path: '/registrations', status: 201 } })
    .input(alertPayloadSchema)
    .output(syncParse(alertSchema))
    .mutation(({ ctx, input }) => ctx.services.alerts.create(ctx.auth.userId, input)),
  update: authedProcedure
    .meta({ rest: { method: 'PATCH', path: '/registrations/:id' } })
    .input(updateAlertInput)
    .output(syncParse(alertSchema))
    .mutation(({ ctx, input }) => ctx.services.alerts.update(owner(ctx), input)),
  snooze: authedProcedure
    .meta({ rest: { method: 'POST', path: '/registrations/:id/snooze' } })
    .input(snoozeAlertInput)
    .output(syncParse(alertSchema))
    .mutation(({ ctx, input }) => ctx.services.alerts.snooze(owner(ctx), input)),
  remove: authedProcedure
    .meta({ rest: { method: 'DELETE', path: '/registrations/:id' } })
    .input(alertIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.alerts.remove(owner(ctx), input.id)),
  test: authedProcedure
    .meta({ rest: { method: 'POST', path: '/registrations/test' } })
    .input(alertTestInput)
    .output(syncParse(alertTestResultSchema))
    .mutation(({ ctx, input }) => ctx.services.alerts.test(ctx.auth.userId, input)),
});

/** Every user's alerts, for admins: list (with owner and staleness), read, edit or set any status, delete. */
export const adminAlertsRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/admin/registrations' } })
    .output(syncParse(z.array(adminAlertRowSchema)))
    .query(({ ctx }) => ctx.services.alerts.listAll()),
  get: adminProcedure
    .meta({ rest: { method: 'GET', path: '/admin/registrations/:id' } })
    .input(alertIdInput)
    .output(syncParse(alertSchema))
    .query(({ ctx, input }) => ctx.services.alerts.get(admin(ctx), input.id)),
  update: adminProcedure
    .meta({ rest: { method: 'PATCH', path: '/admin/registrations/:id' } })
    .input(adminUpdateAlertInput)
    .output(syncParse(alertSchema))
    .mutation(({ ctx, input }) => ctx.services.alerts.update(admin(ctx), input)),
  remove: adminProcedure
    .meta({ rest: { method: 'DELETE', path: '/admin/registrations/:id' } })
    .input(alertIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.alerts.remove(admin(ctx), input.id)),
});
