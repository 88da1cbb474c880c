import {
  authOptionsSchema,
  authResultSchema,
  changePasswordInput,
  forgotPasswordInput,
  invitationLookupInput,
  invitationLookupSchema,
  loginInput,
  messageResultSchema,
  noContent,
  profileSchema,
  registerInput,
  resetPasswordInput,
} from '@resort/shared';
import type { Context } from '../../platform/trpc/context.ts';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { authedProcedure, publicProcedure, router, sessionProcedure } from '../../platform/trpc/trpc.ts';
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_MAX_AGE_SECONDS,
  type IssuedSession,
  REFRESH_COOKIE,
  REFRESH_COOKIE_PATH,
} from './auth.service.ts';

const client = (ctx: Context) => ({
  ip: ctx.ip,
  userAgent: ctx.userAgent,
  device: ctx.cookies.get(DEVICE_COOKIE),
});

/** Puts the refresh token in its httpOnly cookie and answers only what docs/product.md, "The REST contract" describes. */
function answer(ctx: Context, session: IssuedSession) {
  ctx.cookies.set(REFRESH_COOKIE, session.refreshToken, {
    maxAgeSeconds: session.refreshMaxAgeSeconds,
    path: REFRESH_COOKIE_PATH,
  });
  if (session.deviceCookie) {
    ctx.cookies.set(DEVICE_COOKIE, session.deviceCookie, {
      maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_SECONDS,
      path: '/',
    });
  }
  return { tokens: session.tokens, user: session.user };
}

export const authRouter = router({
  register: publicProcedure
    .meta({ rest: { method: 'POST', path: '/auth/register', status: 201, errors: [403, 409, 429] } })
    .input(registerInput)
    .output(syncParse(authResultSchema))
    .mutation(async ({ ctx, input }) => answer(ctx, await ctx.services.auth.register(input, client(ctx)))),

  login: publicProcedure
    .meta({ rest: { method: 'POST', path: '/auth/login', errors: [401, 403, 429] } })
    .input(loginInput)
    .output(syncParse(authResultSchema))
    .mutation(async ({ ctx, input }) => answer(ctx, await ctx.services.auth.login(input, client(ctx)))),

  refresh: publicProcedure
    .meta({ rest: { method: 'POST', path: '/auth/refresh', errors: [401] } })
    .output(syncParse(authResultSchema))
    .mutation(async ({ ctx }) =>
      answer(ctx, await ctx.services.auth.refresh(ctx.cookies.get(REFRESH_COOKIE), client(ctx))),
    ),

  logout: publicProcedure
    .meta({ rest: { method: 'POST', path: '/auth/logout' } })
    .output(syncParse(noContent))
    .mutation(async ({ ctx }) => {
      await ctx.services.auth.logout(ctx.cookies.get(REFRESH_COOKIE));
      ctx.cookies.clear(REFRESH_COOKIE, REFRESH_COOKIE_PATH);
    }),

  me: authedProcedure
    .meta({ rest: { method: 'GET', path: '/auth/me' } })
    .output(syncParse(profileSchema))
    .query(({ ctx }) => ctx.services.users.me(ctx.auth.userId)),

  changePassword: sessionProcedure
    .meta({ rest: { method: 'POST', path: '/users/me/password' } })
    .input(changePasswordInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) =>
      ctx.services.auth.changePassword(ctx.auth.userId, input, ctx.cookies.get(REFRESH_COOKIE), client(ctx)),
    ),

  /** What the sign-in and registration pages offer: the sign-up policy, reset by e-mail. */
  options: publicProcedure
    .meta({ rest: { method: 'GET', path: '/auth/options' } })
    .output(syncParse(authOptionsSchema))
    .query(({ ctx }) => ctx.services.recovery.options()),

  invitation: publicProcedure
    .meta({ rest: { method: 'POST', path: '/auth/invitation' } })
    .input(invitationLookupInput)
    .output(syncParse(invitationLookupSchema))
    .mutation(({ ctx, input }) => ctx.services.recovery.lookupInvitation(input.token)),

  forgotPassword: publicProcedure
    .meta({ rest: { method: 'POST', path: '/auth/password/forgot', errors: [429] } })
    .input(forgotPasswordInput)
    .output(syncParse(messageResultSchema))
    .mutation(({ ctx, input }) => ctx.services.recovery.forgotPassword(input.email, ctx.ip)),

  resetPassword: publicProcedure
    .meta({ rest: { method: 'POST', path: '/auth/password/reset' } })
    .input(resetPasswordInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.recovery.resetPassword(input)),
});
