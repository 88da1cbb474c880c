import { createFileRoute } from '@tanstack/react-router';
import { TemplateEditorScreen } from '@/features/templates/editor/template-editor-screen.tsx';

/** The template editor, create mode. */
export const Route = createFileRoute('/_app/_configurator/admin/templates/new')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.templateGroups.list());
  },
  component: () => <TemplateEditorScreen />,
});
