import { isAdminRole } from '@resort/shared';
import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { ButtonLink } from '@/components/links.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { AlertFormScreen } from '@/features/alerts/form/alert-form-screen.tsx';
import { useSession } from '@/session/use-session.ts';

/**
 * The alert create/edit form (SPEC.md §2). `alert` names the alert being edited. The form's
 * sections live in ./-components/.
 */
export const Route = createFileRoute('/_app/_configurator/configure/alerts')({
  validateSearch: z.object({ alert: z.string().min(1).optional().catch(undefined) }),
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.templates.list());
    void context.queryClient.prefetchQuery(context.api.templateGroups.list());
  },
  component: AlertFormPage,
});

function AlertFormPage() {
  const { alert } = Route.useSearch();
  const session = useSession();
  const viewer = { userId: session?.user.id ?? null, isAdmin: isAdminRole(session?.user.roles ?? []) };
  return (
    <>
      <PageHeader
        title="Create an alert"
        subtitle={
          alert
            ? `Editing alert ${alert}.`
            : 'Pick a template, set the dates and party, choose the rules and where to be notified.'
        }
        actions={
          <ButtonLink to="/alerts" variant="default">
            Back to alerts
          </ButtonLink>
        }
      />
      <NavigationFeedback />
      <AlertFormScreen key={alert ?? 'new'} alertId={alert} viewer={viewer} />
    </>
  );
}
