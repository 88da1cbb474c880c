import {
  createNotificationServiceInput,
  messageResultSchema,
  noContent,
  notificationServiceIdInput,
  notificationServiceSchema,
  quietHoursSchema,
  setNotificationServiceActiveInput,
  testNotificationServiceInput,
  updateNotificationServiceInput,
  verifyChannelInput,
  webPushKeySchema,
} from '@resort/shared';
import { z } from 'zod';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { authedProcedure, router } from '../../platform/trpc/trpc.ts';

const base = '/users/me/notification-services';

export const notificationServicesRouter = router({
  /** Quiet hours: deliveries inside the window are held and sent as one digest per channel at its end. */
  quietHours: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/quiet-hours' } })
    .output(syncParse(quietHoursSchema))
    .query(({ ctx }) => ctx.services.notificationServices.quietHours(ctx.auth.userId)),
  setQuietHours: authedProcedure
    .meta({ rest: { method: 'PUT', path: '/users/me/quiet-hours' } })
    .input(quietHoursSchema)
    .output(syncParse(quietHoursSchema))
    .mutation(({ ctx, input }) => ctx.services.notificationServices.setQuietHours(ctx.auth.userId, input)),
  /** The server's VAPID public key, for a browser subscribing to push (PushManager.subscribe). */
  webPushKey: authedProcedure
    .meta({ rest: { method: 'GET', path: '/users/me/web-push-key' } })
    .output(syncParse(webPushKeySchema))
    .query(({ ctx }) => ctx.services.notificationServices.webPushKey()),
  list: authedProcedure
    .meta({ rest: { method: 'GET', path: base } })
    .output(syncParse(z.array(notificationServiceSchema)))
    .query(({ ctx }) => ctx.services.notificationServices.list(ctx.auth.userId)),
  create: authedProcedure
    .meta({ rest: { method: 'POST', path: base, status: 201, errors: [409] } })
    .input(createNotificationServiceInput)
    .output(syncParse(notificationServiceSchema))
    .mutation(({ ctx, input }) => ctx.services.notificationServices.create(ctx.auth.userId, input)),
  update: authedProcedure
    .meta({ rest: { method: 'PATCH', path: `${base}/:id`, errors: [409] } })
    .input(updateNotificationServiceInput)
    .output(syncParse(notificationServiceSchema))
    .mutation(({ ctx, input }) => ctx.services.notificationServices.update(ctx.auth.userId, input)),
  setActive: authedProcedure
    .input(setNotificationServiceActiveInput)
    .output(syncParse(notificationServiceSchema))
    .mutation(({ ctx, input }) =>
      ctx.services.notificationServices.setActive(ctx.auth.userId, input.id, input.isActive),
    ),
  remove: authedProcedure
    .meta({ rest: { method: 'DELETE', path: `${base}/:id` } })
    .input(notificationServiceIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.notificationServices.remove(ctx.auth.userId, input.id)),
  rotateSecret: authedProcedure
    .meta({ rest: { method: 'POST', path: `${base}/:id/rotate-secret` } })
    .input(notificationServiceIdInput)
    .output(syncParse(notificationServiceSchema))
    .mutation(({ ctx, input }) => ctx.services.notificationServices.rotateSecret(ctx.auth.userId, input.id)),
  test: authedProcedure
    .meta({ rest: { method: 'POST', path: `${base}/test`, errors: [404, 502] } })
    .input(testNotificationServiceInput)
    .output(syncParse(messageResultSchema))
    .mutation(({ ctx, input }) => ctx.services.notificationServices.test(ctx.auth.userId, input)),
  /** Sends a verification code to an e-mail or SMS channel (the only thing it receives until verified). */
  sendVerificationCode: authedProcedure
    .meta({ rest: { method: 'POST', path: `${base}/:id/verification`, errors: [502] } })
    .input(notificationServiceIdInput)
    .output(syncParse(messageResultSchema))
    .mutation(({ ctx, input }) =>
      ctx.services.notificationServices.sendVerificationCode(ctx.auth.userId, input.id),
    ),
  verify: authedProcedure
    .meta({ rest: { method: 'POST', path: `${base}/:id/verify` } })
    .input(verifyChannelInput)
    .output(syncParse(notificationServiceSchema))
    .mutation(({ ctx, input }) =>
      ctx.services.notificationServices.verify(ctx.auth.userId, input.id, input.code),
    ),
});
