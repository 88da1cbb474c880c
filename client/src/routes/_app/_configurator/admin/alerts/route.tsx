import { createFileRoute } from '@tanstack/react-router';
import { AlertListScreen } from '@/components/alerts/alert-list-screen.tsx';
import { NavigationFlash } from '@/components/flash-banner.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { DeliveryHealth } from './-delivery-health.tsx';

export const Route = createFileRoute('/_app/_configurator/admin/alerts')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.adminAlerts.all());
  },
  component: AdminAlertsPage,
});

function AdminAlertsPage() {
  return (
    <>
      <PageHeader title="Alerts (Admin)" subtitle="Every user's alerts, with their owners." />
      <NavigationFlash />
      <DeliveryHealth />
      <AlertListScreen scope="all" />
    </>
  );
}
