import { createFileRoute, redirect } from '@tanstack/react-router';

/** Any unknown path redirects to / (SPEC.md §2). */
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true });
  },
});
