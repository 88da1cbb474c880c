import { createFileRoute } from '@tanstack/react-router';
import { ButtonLink } from '@/components/links.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { TemplateEditorScreen } from '@/features/templates/editor/template-editor-screen.tsx';

/** Template editor, create mode (no templateId). The editor's sections live in ./-components/. */
export const Route = createFileRoute('/_app/_configurator/admin/templates/new')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.templateGroups.list());
  },
  component: () => (
    <>
      <PageHeader
        title="Create Template"
        subtitle="Describe the upstream availability request once; users build alerts from it."
        actions={
          <ButtonLink to="/admin/templates" variant="default">
            Back
          </ButtonLink>
        }
      />
      <TemplateEditorScreen />
    </>
  ),
});
