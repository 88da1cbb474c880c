import {
  adminUpdateRegistrationInput,
  registrationIdInput,
  registrationPayloadSchema,
  registrationTestInput,
  updateRegistrationInput,
} from '@resort/shared';
import { adminProcedure, authedProcedure, router } from '../../http/trpc.ts';

const owner = (ctx: { auth: { userId: string } }) => ({ userId: ctx.auth.userId, admin: false });
const admin = (ctx: { auth: { userId: string } }) => ({ userId: ctx.auth.userId, admin: true });

/** The caller's own alerts: another user's id answers 404. */
export const registrationsRouter = router({
  list: authedProcedure.query(({ ctx }) => ctx.services.registrations.listForUser(ctx.auth.userId)),
  get: authedProcedure
    .input(registrationIdInput)
    .query(({ ctx, input }) => ctx.services.registrations.get(owner(ctx), input.id)),
  create: authedProcedure
    .input(registrationPayloadSchema)
    .mutation(({ ctx, input }) => ctx.services.registrations.create(ctx.auth.userId, input)),
  update: authedProcedure
    .input(updateRegistrationInput)
    .mutation(({ ctx, input }) => ctx.services.registrations.update(owner(ctx), input)),
  remove: authedProcedure
    .input(registrationIdInput)
    .mutation(({ ctx, input }) => ctx.services.registrations.remove(owner(ctx), input.id)),
  test: authedProcedure
    .input(registrationTestInput)
    .mutation(({ ctx, input }) => ctx.services.registrations.test(ctx.auth.userId, input)),
});

/** Every user's alerts, for admins: list (with owner and staleness), read, edit or set any status, delete. */
export const adminRegistrationsRouter = router({
  list: adminProcedure.query(({ ctx }) => ctx.services.registrations.listAll()),
  get: adminProcedure
    .input(registrationIdInput)
    .query(({ ctx, input }) => ctx.services.registrations.get(admin(ctx), input.id)),
  update: adminProcedure
    .input(adminUpdateRegistrationInput)
    .mutation(({ ctx, input }) => ctx.services.registrations.update(admin(ctx), input)),
  remove: adminProcedure
    .input(registrationIdInput)
    .mutation(({ ctx, input }) => ctx.services.registrations.remove(admin(ctx), input.id)),
});
