import {
  accountExportSchema,
  deleteOwnAccountInput,
  noContent,
  notificationPreferencesSchema,
  profileSchema,
  updatePreferencesInput,
  updateProfileInput,
  userSummarySchema,
} from '@resort/shared';
import type { z } from 'zod';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { authedProcedure, router, sessionProcedure } from '../../platform/trpc/trpc.ts';

export const usersRouter = router({
  me: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me' } })
    .output(syncParse(userSummarySchema))
    // The users module lists the other modules' rows loosely (it imports neither); the output schema
    // checks them on the way out, so the contract holds at run time.
    .query(
      async ({ ctx }) =>
        (await ctx.services.users.summary(ctx.auth.userId)) as z.input<typeof userSummarySchema>,
    ),
  updateProfile: authedProcedure
    .meta({ rest: { method: 'PATCH', path: '/users/me' } })
    .input(updateProfileInput)
    .output(syncParse(profileSchema))
    .mutation(({ ctx, input }) => ctx.services.users.updateProfile(ctx.auth.userId, input)),
  preferences: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/preferences' } })
    .output(syncParse(notificationPreferencesSchema))
    .query(({ ctx }) => ctx.services.users.preferences(ctx.auth.userId)),
  updatePreferences: authedProcedure
    .meta({ rest: { method: 'PATCH', path: '/users/me/preferences' } })
    .input(updatePreferencesInput)
    .output(syncParse(notificationPreferencesSchema))
    .mutation(({ ctx, input }) => ctx.services.users.updatePreferences(ctx.auth.userId, input)),
  /** Everything the account holds, as JSON (alerts, channels, watchlists, history, tokens). */
  export: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/export' } })
    .output(syncParse(accountExportSchema))
    .query(({ ctx }) => ctx.services.users.exportData(ctx.auth.userId)),
  /** Deletes the caller's own account with its data, after checking the password. */
  deleteAccount: sessionProcedure
    .meta({ rest: { method: 'DELETE', path: '/users/me', errors: [409] } })
    .input(deleteOwnAccountInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) =>
      ctx.services.auth.deleteOwnAccount(ctx.auth.userId, input.password, ctx.ip),
    ),
});
