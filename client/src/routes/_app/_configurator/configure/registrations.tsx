import { createFileRoute, redirect } from '@tanstack/react-router';

/** An old name of the alert form; the alert id, if any, is kept. */
export const Route = createFileRoute('/_app/_configurator/configure/registrations')({
  beforeLoad: ({ location }) => {
    const { alert } = location.search as { alert?: unknown };
    throw redirect({
      to: '/configure/alerts',
      search: typeof alert === 'string' && alert ? { alert } : {},
      replace: true,
    });
  },
});
