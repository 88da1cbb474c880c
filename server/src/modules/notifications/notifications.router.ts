import { notificationHistoryInput, notificationRecordSchema } from '@resort/shared';
import { z } from 'zod';
import { authedProcedure, router } from '../../platform/trpc/trpc.ts';

export const notificationsRouter = router({
  history: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/notification-history' } })
    .input(notificationHistoryInput)
    .output(z.array(notificationRecordSchema))
    .query(({ ctx, input }) => ctx.services.notifications.history(ctx.auth.userId, input)),
});
