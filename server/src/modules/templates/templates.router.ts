import {
  generatorSampleInput,
  isAdminRole,
  noContent,
  templateCreateInput,
  templateGeneratorInfoSchema,
  templateIdInput,
  templateSampleSchema,
  templateSchema,
  templateTestInput,
  templateTestResultSchema,
  templateUpdateInput,
} from '@resort/shared';
import { z } from 'zod';
import type { Context } from '../../platform/trpc/context.ts';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { adminProcedure, authedProcedure, router } from '../../platform/trpc/trpc.ts';
import type { Viewer } from './templates.service.ts';

/** Roles re-read from the database, as adminProcedure does, so a demoted admin stops seeing inactive templates. */
async function viewerOf(ctx: Pick<Context, 'services'>, userId: string): Promise<Viewer> {
  const roles = await ctx.services.users.findRoles(userId);
  return { isAdmin: !!roles && isAdminRole(roles) };
}

export const templatesRouter = router({
  list: authedProcedure
    .meta({ rest: { method: 'GET', path: '/templates' } })
    .output(syncParse(z.array(templateSchema)))
    .query(async ({ ctx }) => ctx.services.templates.list(await viewerOf(ctx, ctx.auth.userId))),
  get: authedProcedure
    .meta({ rest: { method: 'GET', path: '/templates/:id' } })
    .input(templateIdInput)
    .output(syncParse(templateSchema))
    .query(async ({ ctx, input }) =>
      ctx.services.templates.get(input.id, await viewerOf(ctx, ctx.auth.userId)),
    ),
  create: adminProcedure
    .meta({ rest: { method: 'POST', path: '/templates', status: 201 } })
    .input(templateCreateInput)
    .output(syncParse(templateSchema))
    .mutation(({ ctx, input }) => ctx.services.templates.create(input)),
  update: adminProcedure
    .meta({ rest: { method: 'PATCH', path: '/templates/:id' } })
    .input(templateUpdateInput)
    .output(syncParse(templateSchema))
    .mutation(({ ctx, input }) => ctx.services.templates.update(input)),
  delete: adminProcedure
    .meta({ rest: { method: 'DELETE', path: '/templates/:id', errors: [409] } })
    .input(templateIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.templates.remove(input.id)),
  test: adminProcedure
    .meta({ rest: { method: 'POST', path: '/templates/:id/test' } })
    .input(templateTestInput)
    .output(syncParse(templateTestResultSchema))
    .mutation(({ ctx, input }) => ctx.services.templates.test(input)),
  generators: adminProcedure
    .meta({ rest: { method: 'GET', path: '/templates/generators' } })
    .output(syncParse(z.array(templateGeneratorInfoSchema)))
    .query(({ ctx }) => ctx.services.templates.listGenerators()),
  // Static segments win over /templates/:id in Fastify's router.
  generatorSample: adminProcedure
    .meta({ rest: { method: 'GET', path: '/templates/generators/:id' } })
    .input(generatorSampleInput)
    .output(syncParse(templateSampleSchema))
    .query(({ ctx, input }) => ctx.services.templates.generatorSample(input)),
});
