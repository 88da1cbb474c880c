import { createFileRoute } from '@tanstack/react-router';
import { AlertListScreen } from '@/features/alerts/list/alert-list-screen.tsx';

export const Route = createFileRoute('/_app/_configurator/admin/alerts')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.adminAlerts.all());
  },
  component: () => <AlertListScreen scope="all" />,
});
