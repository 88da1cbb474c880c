import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { AlertFormScreen } from '@/features/alerts/form/alert-form-screen.tsx';
import { useViewer } from '@/session/use-session.ts';

/** The alert form; `alert` names the alert being edited. */
export const Route = createFileRoute('/_app/_configurator/configure/alerts')({
  validateSearch: z.object({ alert: z.string().min(1).optional().catch(undefined) }),
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.templates.list());
    void context.queryClient.prefetchQuery(context.api.templateGroups.list());
  },
  component: AlertFormRoute,
});

function AlertFormRoute() {
  const { alert } = Route.useSearch();
  const viewer = useViewer();
  return <AlertFormScreen alertId={alert} viewer={viewer} />;
}
