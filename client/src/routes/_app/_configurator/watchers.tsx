import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/_configurator/watchers')({
  beforeLoad: () => {
    throw redirect({ to: '/alerts', replace: true });
  },
});
