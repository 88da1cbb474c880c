import { createFileRoute } from '@tanstack/react-router';
import { DashboardScreen } from '@/features/dashboard/dashboard-screen.tsx';

export const Route = createFileRoute('/_app/dashboard')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.dashboard.summary());
  },
  component: DashboardScreen,
});
