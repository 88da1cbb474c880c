import {
  adminAlertRowSchema,
  adminUpdateRegistrationInput,
  alertRowSchema,
  noContent,
  registrationIdInput,
  registrationPayloadSchema,
  registrationSchema,
  registrationTestInput,
  registrationTestResultSchema,
  updateRegistrationInput,
} from '@resort/shared';
import { z } from 'zod';
import { adminProcedure, authedProcedure, router } from '../../platform/trpc/trpc.ts';

const owner = (ctx: { auth: { userId: string } }) => ({ userId: ctx.auth.userId, admin: false });
const admin = (ctx: { auth: { userId: string } }) => ({ userId: ctx.auth.userId, admin: true });

/** The caller's own alerts: another user's id answers 404. */
export const registrationsRouter = router({
  list: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/registrations' } })
    .output(z.array(alertRowSchema))
    .query(({ ctx }) => ctx.services.registrations.listForUser(ctx.auth.userId)),
  get: authedProcedure
    .meta({ rest: { method: 'GET', path: '/registrations/:id' } })
    .input(registrationIdInput)
    .output(registrationSchema)
    .query(({ ctx, input }) => ctx.services.registrations.get(owner(ctx), input.id)),
  create: authedProcedure
    .meta({ rest: { method: 'POST', path: '/registrations', status: 201 } })
    .input(registrationPayloadSchema)
    .output(registrationSchema)
    .mutation(({ ctx, input }) => ctx.services.registrations.create(ctx.auth.userId, input)),
  update: authedProcedure
    .meta({ rest: { method: 'PATCH', path: '/registrations/:id' } })
    .input(updateRegistrationInput)
    .output(registrationSchema)
    .mutation(({ ctx, input }) => ctx.services.registrations.update(owner(ctx), input)),
  remove: authedProcedure
    .meta({ rest: { method: 'DELETE', path: '/registrations/:id' } })
    .input(registrationIdInput)
    .output(noContent)
    .mutation(({ ctx, input }) => ctx.services.registrations.remove(owner(ctx), input.id)),
  test: authedProcedure
    .meta({ rest: { method: 'POST', path: '/registrations/test' } })
    .input(registrationTestInput)
    .output(registrationTestResultSchema)
    .mutation(({ ctx, input }) => ctx.services.registrations.test(ctx.auth.userId, input)),
});

/** Every user's alerts, for admins: list (with owner and staleness), read, edit or set any status, delete. */
export const adminRegistrationsRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/admin/registrations' } })
    .output(z.array(adminAlertRowSchema))
    .query(({ ctx }) => ctx.services.registrations.listAll()),
  get: adminProcedure
    .meta({ rest: { method: 'GET', path: '/admin/registrations/:id' } })
    .input(registrationIdInput)
    .output(registrationSchema)
    .query(({ ctx, input }) => ctx.services.registrations.get(admin(ctx), input.id)),
  update: adminProcedure
    .meta({ rest: { method: 'PATCH', path: '/admin/registrations/:id' } })
    .input(adminUpdateRegistrationInput)
    .output(registrationSchema)
    .mutation(({ ctx, input }) => ctx.services.registrations.update(admin(ctx), input)),
  remove: adminProcedure
    .meta({ rest: { method: 'DELETE', path: '/admin/registrations/:id' } })
    .input(registrationIdInput)
    .output(noContent)
    .mutation(({ ctx, input }) => ctx.services.registrations.remove(admin(ctx), input.id)),
});
