import { isAdminRole } from '@resort/shared';
import { createFileRoute } from '@tanstack/react-router';
import { AlertPageScreen } from '@/features/alerts/page/alert-page-screen.tsx';

export const Route = createFileRoute('/_app/_configurator/alerts/$alertId')({
  // The insight request starts with the navigation, alongside the page's chunk (charts included),
  // not after it has loaded and rendered.
  loader: ({ context, params }) => {
    const admin = isAdminRole(context.session.get()?.user.roles ?? []);
    void context.queryClient.prefetchQuery(context.api.alertInsight.get(params.alertId, admin));
  },
  component: AlertPage,
});

function AlertPage() {
  const { alertId } = Route.useParams();
  return <AlertPageScreen alertId={alertId} />;
}
