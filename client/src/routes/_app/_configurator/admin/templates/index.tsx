import { createFileRoute } from '@tanstack/react-router';
import { ButtonLink } from '../../../../../components/links.tsx';
import { PageHeader } from '../../../../../components/page-header.tsx';

/** Template Administration (SPEC.md §2); the list's cards live in ./-components/. */
export const Route = createFileRoute('/_app/_configurator/admin/templates/')({
  component: () => (
    <PageHeader
      title="Template Administration"
      subtitle="Review existing resort templates and manage override capabilities."
      actions={<ButtonLink to="/admin/templates/new">Create Template</ButtonLink>}
    />
  ),
});
