import { updateProfileInput } from '@resort/shared';
import { authedProcedure, router } from '../../http/trpc.ts';

export const usersRouter = router({
  me: authedProcedure.query(({ ctx }) => ctx.services.users.summary(ctx.auth.userId)),
  updateProfile: authedProcedure
    .input(updateProfileInput)
    .mutation(({ ctx, input }) => ctx.services.users.updateProfile(ctx.auth.userId, input)),
});
