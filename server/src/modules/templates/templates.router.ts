import {
  generatorSampleInput,
  isAdminRole,
  templateCreateInput,
  templateIdInput,
  templateTestInput,
  templateUpdateInput,
} from '@resort/shared';
import type { Context } from '../../http/context.ts';
import { adminProcedure, authedProcedure, router } from '../../http/trpc.ts';
import type { Viewer } from './templates.service.ts';

/** Roles re-read from the database, as adminProcedure does, so a demoted admin stops seeing inactive templates. */
async function viewerOf(ctx: Pick<Context, 'services'>, userId: string): Promise<Viewer> {
  const roles = await ctx.services.users.findRoles(userId);
  return { isAdmin: !!roles && isAdminRole(roles) };
}

export const templatesRouter = router({
  list: authedProcedure.query(async ({ ctx }) =>
    ctx.services.templates.list(await viewerOf(ctx, ctx.auth.userId)),
  ),
  get: authedProcedure
    .input(templateIdInput)
    .query(async ({ ctx, input }) =>
      ctx.services.templates.get(input.id, await viewerOf(ctx, ctx.auth.userId)),
    ),
  create: adminProcedure
    .input(templateCreateInput)
    .mutation(({ ctx, input }) => ctx.services.templates.create(input)),
  update: adminProcedure
    .input(templateUpdateInput)
    .mutation(({ ctx, input }) => ctx.services.templates.update(input)),
  delete: adminProcedure
    .input(templateIdInput)
    .mutation(({ ctx, input }) => ctx.services.templates.remove(input.id)),
  test: adminProcedure
    .input(templateTestInput)
    .mutation(({ ctx, input }) => ctx.services.templates.test(input)),
  generators: adminProcedure.query(({ ctx }) => ctx.services.templates.listGenerators()),
  generatorSample: adminProcedure
    .input(generatorSampleInput)
    .query(({ ctx, input }) => ctx.services.templates.generatorSample(input)),
});
