import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/_app/_configurator/admin/')({
  beforeLoad: () => {
    throw redirect({ to: '/admin/templates', replace: true });
  },
});
