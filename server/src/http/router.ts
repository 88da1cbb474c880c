import { authRouter } from '../modules/auth/auth.router.ts';
import { healthRouter } from '../modules/health/health.router.ts';
import { proxiesRouter } from '../modules/proxies/proxies.router.ts';
import { usersRouter } from '../modules/users/users.router.ts';
import { router } from './trpc.ts';

/** The whole API: each module contributes one router. */
export const appRouter = router({
  health: healthRouter,
  auth: authRouter,
  users: usersRouter,
  proxies: proxiesRouter,
});

export type AppRouter = typeof appRouter;
