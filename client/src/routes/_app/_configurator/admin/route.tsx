import { isAdminRole } from '@resort/shared';
import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';

/**
 * Admins only (roles admin or super_admin); others go to /unauthorized. The server checks the role
 * again on every admin procedure, so this guard is for the interface, not for security.
 */
export const Route = createFileRoute('/_app/_configurator/admin')({
  beforeLoad: ({ context }) => {
    if (!isAdminRole(context.session.get()?.user.roles ?? [])) {
      throw redirect({ to: '/unauthorized', replace: true });
    }
  },
  component: Outlet,
});
