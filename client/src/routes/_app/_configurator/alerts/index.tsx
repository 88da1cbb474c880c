import { createFileRoute } from '@tanstack/react-router';
import { AlertListScreen } from '@/features/alerts/list/alert-list-screen.tsx';

export const Route = createFileRoute('/_app/_configurator/alerts/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.alerts.mine());
  },
  component: () => <AlertListScreen scope="mine" />,
});
