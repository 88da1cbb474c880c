import { createFileRoute } from '@tanstack/react-router';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { AlertListScreen } from '@/features/alerts/list/alert-list-screen.tsx';

export const Route = createFileRoute('/_app/_configurator/alerts/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.alerts.mine());
  },
  component: AlertsPage,
});

function AlertsPage() {
  return (
    <>
      <PageHeader title="Alerts" subtitle="Every alert you watch, its dates and its status." />
      <NavigationFeedback />
      <AlertListScreen scope="mine" />
    </>
  );
}
