import {
  accountMessages,
  adminUserDetailSchema,
  adminUserIdInput,
  adminUserListInput,
  adminUserSchema,
  createdInvitationSchema,
  createInvitationInput,
  invitationIdInput,
  invitationSchema,
  issuedLinkSchema,
  noContent,
  setSignupPolicyInput,
  setUserDisabledInput,
  setUserLevelInput,
  signupSettingsSchema,
} from '@resort/shared';
import { z } from 'zod';
import { AppError } from '../../platform/errors.ts';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { adminProcedure, router, superAdminProcedure } from '../../platform/trpc/trpc.ts';

const actor = (ctx: { auth: { userId: string; roles: readonly string[] } }) => ({
  id: ctx.auth.userId,
  roles: ctx.auth.roles,
});

/** The Users screen (docs/product.md, "Roles and permissions"): admins list and manage accounts. */
export const adminUsersRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/admin/users' } })
    .input(adminUserListInput)
    .output(syncParse(z.array(adminUserSchema)))
    .query(({ ctx, input }) => ctx.services.accounts.list(input?.search)),
  get: adminProcedure
    .meta({ rest: { method: 'GET', path: '/admin/users/:id' } })
    .input(adminUserIdInput)
    .output(syncParse(adminUserDetailSchema))
    .query(({ ctx, input }) => ctx.services.accounts.get(input.id)),
  setDisabled: adminProcedure
    .meta({ rest: { method: 'PUT', path: '/admin/users/:id/disabled', errors: [409] } })
    .input(setUserDisabledInput)
    .output(syncParse(adminUserSchema))
    .mutation(({ ctx, input }) => ctx.services.accounts.setDisabled(actor(ctx), input.id, input.disabled)),
  setLevel: superAdminProcedure
    .meta({ rest: { method: 'PUT', path: '/admin/users/:id/role', errors: [409] } })
    .input(setUserLevelInput)
    .output(syncParse(adminUserSchema))
    .mutation(({ ctx, input }) => ctx.services.accounts.setLevel(ctx.auth.userId, input.id, input.level)),
  remove: adminProcedure
    .meta({ rest: { method: 'DELETE', path: '/admin/users/:id', errors: [409] } })
    .input(adminUserIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.accounts.remove(actor(ctx), input.id)),
  issuePasswordReset: adminProcedure
    .meta({ rest: { method: 'POST', path: '/admin/users/:id/password-reset', status: 201 } })
    .input(adminUserIdInput)
    .output(syncParse(issuedLinkSchema))
    .mutation(async ({ ctx, input }) => {
      if (input.id === ctx.auth.userId) throw new AppError('BAD_REQUEST', accountMessages.notYourself);
      await ctx.services.accounts.assertMayManage(actor(ctx), input.id);
      return ctx.services.recovery.issueResetLink(input.id);
    }),
});

export const signupSettingsRouter = router({
  get: adminProcedure
    .meta({ rest: { method: 'GET', path: '/admin/settings/signup' } })
    .output(syncParse(signupSettingsSchema))
    .query(({ ctx }) => ctx.services.accounts.signupSettings()),
  set: superAdminProcedure
    .meta({ rest: { method: 'PUT', path: '/admin/settings/signup' } })
    .input(setSignupPolicyInput)
    .output(syncParse(signupSettingsSchema))
    .mutation(({ ctx, input }) => ctx.services.accounts.setSignupPolicy(input.policy)),
});

export const invitationsRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/admin/invitations' } })
    .output(syncParse(z.array(invitationSchema)))
    .query(({ ctx }) => ctx.services.recovery.listInvitations()),
  create: adminProcedure
    .meta({ rest: { method: 'POST', path: '/admin/invitations', status: 201 } })
    .input(createInvitationInput)
    .output(syncParse(createdInvitationSchema))
    .mutation(({ ctx, input }) => ctx.services.recovery.createInvitation(actor(ctx), input)),
  revoke: adminProcedure
    .meta({ rest: { method: 'DELETE', path: '/admin/invitations/:id' } })
    .input(invitationIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.recovery.revokeInvitation(input.id)),
});
