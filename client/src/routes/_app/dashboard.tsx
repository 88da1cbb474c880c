import { createFileRoute } from '@tanstack/react-router';
import { DashboardView } from './-components/dashboard/dashboard-view.tsx';

export const Route = createFileRoute('/_app/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.dashboard.summary());
  },
  component: DashboardView,
});
