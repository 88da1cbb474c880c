import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/_configurator/configure/')({
  beforeLoad: () => {
    throw redirect({ to: '/settings', replace: true });
  },
});
