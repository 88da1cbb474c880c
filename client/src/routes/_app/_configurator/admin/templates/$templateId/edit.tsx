import { createFileRoute } from '@tanstack/react-router';
import { ButtonLink } from '../../../../../../components/links.tsx';
import { PageHeader } from '../../../../../../components/page-header.tsx';

/** Template editor, edit mode. The editor's sections live in ../-components/. */
export const Route = createFileRoute('/_app/_configurator/admin/templates/$templateId/edit')({
  component: EditTemplatePage,
});

function EditTemplatePage() {
  const { templateId } = Route.useParams();
  return (
    <PageHeader
      title="Edit Template"
      subtitle={`Template ${templateId}`}
      actions={
        <ButtonLink to="/admin/templates" variant="default">
          Back
        </ButtonLink>
      }
    />
  );
}
