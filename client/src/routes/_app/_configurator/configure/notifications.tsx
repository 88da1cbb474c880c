import { createFileRoute, redirect } from '@tanstack/react-router';

/** Notification services are managed in Settings. */
export const Route = createFileRoute('/_app/_configurator/configure/notifications')({
  beforeLoad: () => {
    throw redirect({ to: '/settings', replace: true });
  },
});
