import { isAdminRole, type LiveEvent, liveSubscriptionInput, messages } from '@resort/shared';
import { tracked } from '@trpc/server';
import { AppError } from '../../platform/errors.ts';
import { authedProcedure, router } from '../../platform/trpc/trpc.ts';

/** Events waiting for the subscriber's generator, handed over as they come. */
function createQueue(signal: AbortSignal | undefined) {
  const items: LiveEvent[] = [];
  let wake: (() => void) | null = null;
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    push(event: LiveEvent) {
      items.push(event);
      wake?.();
    },
    async *drain() {
      try {
        while (!signal?.aborted) {
          if (items.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
          while (items.length > 0) yield items.shift()!;
        }
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

/**
 * Live updates over server-sent events (httpSubscriptionLink): the signed-in user's notification,
 * delivery, status and poll events, or every user's for admin views. Each event carries the id of the
 * newest kept event, so a reconnecting client (tRPC sends it back as lastEventId) resumes exactly
 * after what it saw: kept events it missed are replayed once, never twice.
 */
export const liveRouter = router({
  events: authedProcedure.input(liveSubscriptionInput).subscription(async function* ({ ctx, input, signal }) {
    let userId: string | null = ctx.auth.userId;
    if (input.scope === 'all') {
      const roles = await ctx.findRoles(ctx.auth.userId);
      if (!roles || !isAdminRole(roles)) throw new AppError('FORBIDDEN', messages.common.forbidden);
      userId = null;
    }
    const hub = ctx.services.live;
    // The stream ends when the browser leaves, or when this process stops (the hub closes).
    const queue = createQueue(signal ? AbortSignal.any([signal, hub.ended]) : hub.ended);
    // Listening first, then reading the log: an event committed in between is in both, and the id
    // check below lets it through once.
    const stop = await hub.listen(userId, (e) => queue.push(e));
    try {
      const resumeFrom = input.lastEventId && /^\d+$/.test(input.lastEventId) ? input.lastEventId : null;
      let last = BigInt(resumeFrom ?? (await hub.latestEventId()));
      yield tracked(String(last), {
        kind: 'ready' as const,
        id: String(last),
        userId: ctx.auth.userId,
        registrationId: null,
        status: null,
        notificationId: null,
        message: null,
        notificationKind: null,
      });
      if (resumeFrom !== null) {
        for (const event of await hub.replay(userId, resumeFrom)) {
          last = BigInt(event.id!);
          yield tracked(event.id!, event);
        }
      }
      for await (const event of queue.drain()) {
        if (event.id !== null) {
          if (BigInt(event.id) <= last) continue;
          last = BigInt(event.id);
        }
        yield tracked(String(last), event);
      }
    } finally {
      stop();
    }
  }),
});
