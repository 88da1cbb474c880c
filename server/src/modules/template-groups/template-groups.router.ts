import { templateGroupCreateInput, templateGroupIdInput, templateGroupUpdateInput } from '@resort/shared';
import { adminProcedure, authedProcedure, router } from '../../http/trpc.ts';

/** Signed-in users read groups (the alert form filters templates by group); admins change them. */
export const templateGroupsRouter = router({
  list: authedProcedure.query(({ ctx }) => ctx.services.templateGroups.list()),
  get: authedProcedure
    .input(templateGroupIdInput)
    .query(({ ctx, input }) => ctx.services.templateGroups.get(input.id)),
  create: adminProcedure
    .input(templateGroupCreateInput)
    .mutation(({ ctx, input }) => ctx.services.templateGroups.create(input)),
  update: adminProcedure
    .input(templateGroupUpdateInput)
    .mutation(({ ctx, input }) => ctx.services.templateGroups.update(input)),
  delete: adminProcedure
    .input(templateGroupIdInput)
    .mutation(({ ctx, input }) => ctx.services.templateGroups.remove(input.id)),
});
