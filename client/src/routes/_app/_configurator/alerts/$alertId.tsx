import { createFileRoute } from '@tanstack/react-router';
import { AlertPageScreen } from '@/components/alerts/page/alert-page-screen.tsx';

export const Route = createFileRoute('/_app/_configurator/alerts/$alertId')({
  component: AlertPage,
});

function AlertPage() {
  const { alertId } = Route.useParams();
  return <AlertPageScreen alertId={alertId} />;
}
