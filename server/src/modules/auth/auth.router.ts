import { changePasswordInput, loginInput, registerInput } from '@resort/shared';
import type { Context } from '../../http/context.ts';
import { authedProcedure, publicProcedure, router } from '../../http/trpc.ts';
import { type IssuedSession, REFRESH_COOKIE, REFRESH_COOKIE_PATH } from './auth.service.ts';

const client = (ctx: Context) => ({ ip: ctx.ip, userAgent: ctx.userAgent });

/** Puts the refresh token in its httpOnly cookie and answers only what SPEC.md §7 describes. */
function answer(ctx: Context, session: IssuedSession) {
  ctx.cookies.set(REFRESH_COOKIE, session.refreshToken, {
    maxAgeSeconds: session.refreshMaxAgeSeconds,
    path: REFRESH_COOKIE_PATH,
  });
  return { tokens: session.tokens, user: session.user };
}

export const authRouter = router({
  register: publicProcedure
    .input(registerInput)
    .mutation(async ({ ctx, input }) => answer(ctx, await ctx.services.auth.register(input, client(ctx)))),

  login: publicProcedure
    .input(loginInput)
    .mutation(async ({ ctx, input }) => answer(ctx, await ctx.services.auth.login(input, client(ctx)))),

  refresh: publicProcedure.mutation(async ({ ctx }) =>
    answer(ctx, await ctx.services.auth.refresh(ctx.cookies.get(REFRESH_COOKIE), client(ctx))),
  ),

  logout: publicProcedure.mutation(async ({ ctx }) => {
    await ctx.services.auth.logout(ctx.cookies.get(REFRESH_COOKIE));
    ctx.cookies.clear(REFRESH_COOKIE, REFRESH_COOKIE_PATH);
  }),

  me: authedProcedure.query(({ ctx }) => ctx.services.users.me(ctx.auth.userId)),

  changePassword: authedProcedure
    .input(changePasswordInput)
    .mutation(({ ctx, input }) =>
      ctx.services.auth.changePassword(ctx.auth.userId, input, ctx.cookies.get(REFRESH_COOKIE)),
    ),
});
