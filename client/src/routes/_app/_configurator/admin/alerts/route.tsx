import { createFileRoute } from '@tanstack/react-router';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { AlertListScreen } from '@/features/alerts/list/alert-list-screen.tsx';
import { DeliveryHealth } from '@/features/alerts/list/delivery-health.tsx';

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
      <NavigationFeedback />
      <DeliveryHealth />
      <AlertListScreen scope="all" />
    </>
  );
}
