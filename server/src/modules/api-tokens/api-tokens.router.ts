import {
  apiTokenIdInput,
  apiTokenSchema,
  createApiTokenInput,
  createdApiTokenSchema,
  noContent,
} from '@resort/shared';
import { z } from 'zod';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { router, sessionProcedure } from '../../platform/trpc/trpc.ts';

const base = '/users/me/api-tokens';

/** The caller's personal API tokens: managed from a signed-in session only, never with a token. */
export const apiTokensRouter = router({
  list: sessionProcedure
    .meta({ rest: { method: 'GET', path: base, summary: 'List your personal API tokens' } })
    .output(syncParse(z.array(apiTokenSchema)))
    .query(({ ctx }) => ctx.services.apiTokens.list(ctx.auth.userId)),
  create: sessionProcedure
    .meta({
      rest: {
        method: 'POST',
        path: base,
        status: 201,
        errors: [409],
        summary: 'Create a personal API token (the token is in this answer only)',
      },
    })
    .input(createApiTokenInput)
    .output(syncParse(createdApiTokenSchema))
    .mutation(({ ctx, input }) => ctx.services.apiTokens.create(ctx.auth.userId, input)),
  revoke: sessionProcedure
    .meta({ rest: { method: 'DELETE', path: `${base}/:id`, summary: 'Revoke a personal API token' } })
    .input(apiTokenIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.apiTokens.revoke(ctx.auth.userId, input.id)),
});
