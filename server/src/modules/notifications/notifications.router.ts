import { notificationHistoryInput, notificationRecordSchema } from '@resort/shared';
import { z } from 'zod';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { authedProcedure, router } from '../../platform/trpc/trpc.ts';

export const notificationsRouter = router({
  history: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/notification-history' } })
    .input(notificationHistoryInput)
    .output(syncParse(z.array(notificationRecordSchema)))
    .query(({ ctx, input }) => ctx.services.notifications.history(ctx.auth.userId, input)),
});
