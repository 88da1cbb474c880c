import {
  createNotificationServiceInput,
  notificationServiceIdInput,
  setNotificationServiceActiveInput,
  testNotificationServiceInput,
  updateNotificationServiceInput,
} from '@resort/shared';
import { authedProcedure, router } from '../../http/trpc.ts';

export const notificationServicesRouter = router({
  list: authedProcedure.query(({ ctx }) => ctx.services.notificationServices.list(ctx.auth.userId)),
  create: authedProcedure
    .input(createNotificationServiceInput)
    .mutation(({ ctx, input }) => ctx.services.notificationServices.create(ctx.auth.userId, input)),
  update: authedProcedure
    .input(updateNotificationServiceInput)
    .mutation(({ ctx, input }) => ctx.services.notificationServices.update(ctx.auth.userId, input)),
  setActive: authedProcedure
    .input(setNotificationServiceActiveInput)
    .mutation(({ ctx, input }) =>
      ctx.services.notificationServices.setActive(ctx.auth.userId, input.id, input.isActive),
    ),
  remove: authedProcedure
    .input(notificationServiceIdInput)
    .mutation(({ ctx, input }) => ctx.services.notificationServices.remove(ctx.auth.userId, input.id)),
  rotateSecret: authedProcedure
    .input(notificationServiceIdInput)
    .mutation(({ ctx, input }) => ctx.services.notificationServices.rotateSecret(ctx.auth.userId, input.id)),
  test: authedProcedure
    .input(testNotificationServiceInput)
    .mutation(({ ctx, input }) => ctx.services.notificationServices.test(ctx.auth.userId, input)),
});
