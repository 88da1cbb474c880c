import { createFileRoute, redirect } from '@tanstack/react-router';

/** Any unknown path redirects to /. */
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true });
  },
});
