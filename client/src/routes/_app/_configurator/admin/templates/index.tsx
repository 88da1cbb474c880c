import { createFileRoute } from '@tanstack/react-router';
import { TemplateListScreen } from '@/features/templates/list/template-list-screen.tsx';

export const Route = createFileRoute('/_app/_configurator/admin/templates/')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.templates.list());
  },
  component: TemplateListScreen,
});
