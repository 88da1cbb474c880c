import { notificationHistoryInput } from '@resort/shared';
import { authedProcedure, router } from '../../http/trpc.ts';

export const notificationsRouter = router({
  history: authedProcedure
    .input(notificationHistoryInput)
    .query(({ ctx, input }) => ctx.services.notifications.history(ctx.auth.userId, input)),
});
