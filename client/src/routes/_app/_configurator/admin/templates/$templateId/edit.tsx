import { createFileRoute } from '@tanstack/react-router';
import { TemplateEditorScreen } from '@/features/templates/editor/template-editor-screen.tsx';

/** The template editor, edit mode. */
export const Route = createFileRoute('/_app/_configurator/admin/templates/$templateId/edit')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(context.api.templates.get(params.templateId));
    void context.queryClient.prefetchQuery(context.api.templateGroups.list());
  },
  component: EditTemplateRoute,
});

function EditTemplateRoute() {
  const { templateId } = Route.useParams();
  return <TemplateEditorScreen templateId={templateId} />;
}
