import {
  noContent,
  templateGroupCreateInput,
  templateGroupIdInput,
  templateGroupSchema,
  templateGroupUpdateInput,
} from '@resort/shared';
import { z } from 'zod';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { adminProcedure, authedProcedure, router } from '../../platform/trpc/trpc.ts';

/** Signed-in users read groups (the alert form filters templates by group); admins change them. */
export const templateGroupsRouter = router({
  list: authedProcedure
    .meta({ rest: { method: 'GET', path: '/template-groups' } })
    .output(syncParse(z.array(templateGroupSchema)))
    .query(({ ctx }) => ctx.services.templateGroups.list()),
  get: authedProcedure
    .meta({ rest: { method: 'GET', path: '/template-groups/:id' } })
    .input(templateGroupIdInput)
    .output(syncParse(templateGroupSchema))
    .query(({ ctx, input }) => ctx.services.templateGroups.get(input.id)),
  create: adminProcedure
    .meta({ rest: { method: 'POST', path: '/template-groups', status: 201, errors: [409] } })
    .input(templateGroupCreateInput)
    .output(syncParse(templateGroupSchema))
    .mutation(({ ctx, input }) => ctx.services.templateGroups.create(input)),
  update: adminProcedure
    .meta({ rest: { method: 'PATCH', path: '/template-groups/:id', errors: [409] } })
    .input(templateGroupUpdateInput)
    .output(syncParse(templateGroupSchema))
    .mutation(({ ctx, input }) => ctx.services.templateGroups.update(input)),
  delete: adminProcedure
    .meta({ rest: { method: 'DELETE', path: '/template-groups/:id' } })
    .input(templateGroupIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.templateGroups.remove(input.id)),
});
