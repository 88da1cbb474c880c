import { createRootRouteWithContext, Navigate, Outlet } from '@tanstack/react-router';
import type { RouterContext } from '@/app/create-app.ts';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  // Unknown paths go to /; the splat route does it for most, this catches the rest.
  notFoundComponent: () => <Navigate to="/" replace />,
});
