import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ButtonLink } from '../../../../../components/links.tsx';
import { PageHeader } from '../../../../../components/page-header.tsx';

/**
 * The alert create/edit form (SPEC.md §2). `alert` names the alert being edited. The form's
 * sections live in ./-components/.
 */
export const Route = createFileRoute('/_app/_configurator/configure/alerts')({
  validateSearch: z.object({ alert: z.string().min(1).optional().catch(undefined) }),
  component: AlertFormPage,
});

function AlertFormPage() {
  return (
    <PageHeader
      title="Create an alert"
      subtitle="Pick a template, set the dates and party, choose the rules and where to be notified."
      actions={
        <ButtonLink to="/alerts" variant="default">
          Back to alerts
        </ButtonLink>
      }
    />
  );
}
