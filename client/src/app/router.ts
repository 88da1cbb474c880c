import { createRouter } from '@tanstack/react-router';
import type { Feedback } from '@/components/feedback.tsx';
import { RouteError, RoutePending } from '@/components/route-states.tsx';
import { routeTree } from '@/routeTree.gen.ts';
import type { RouterContext } from './create-app.ts';

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: false,
    scrollRestoration: true,
    defaultPendingComponent: RoutePending,
    defaultErrorComponent: RouteError,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface HistoryState {
    flash?: Feedback;
  }
}
