import { createFileRoute } from '@tanstack/react-router';
import { AlertListScreen } from '@/components/alerts/alert-list-screen.tsx';
import { NavigationFlash } from '@/components/flash-banner.tsx';
import { PageHeader } from '@/components/page-header.tsx';

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
      <NavigationFlash />
      <AlertListScreen scope="mine" />
    </>
  );
}
