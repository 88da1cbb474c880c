import { createFileRoute } from '@tanstack/react-router';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { ButtonLink } from '@/components/links.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { TemplateEditorScreen } from '@/features/templates/editor/template-editor-screen.tsx';

/** Template editor, edit mode. The editor's sections live in ../-components/. */
export const Route = createFileRoute('/_app/_configurator/admin/templates/$templateId/edit')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(context.api.templates.get(params.templateId));
    void context.queryClient.prefetchQuery(context.api.templateGroups.list());
  },
  component: EditTemplatePage,
});

function EditTemplatePage() {
  const { templateId } = Route.useParams();
  return (
    <>
      <PageHeader
        title="Edit Template"
        subtitle={`Template ${templateId}`}
        actions={
          <ButtonLink to="/admin/templates" variant="default">
            Back
          </ButtonLink>
        }
      />
      <NavigationFeedback />
      <TemplateEditorScreen templateId={templateId} />
    </>
  );
}
