import { templateMessages } from '@resort/shared';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { ButtonLink } from '@/components/links.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { TemplateList } from './template-list.tsx';

/** Template Administration (/admin/templates): every template as a card, with its alerts' health. */
export function TemplateListScreen() {
  const api = useApi();
  const list = useQuery(api.templates.list());
  // Each template's alert health (GET /api/health, refreshed while shown); the cards wait for nothing.
  const report = useQuery(api.health.get());
  const health = new Map((report.data?.templates ?? []).map((t) => [t.templateId, t]));
  return (
    <>
      <PageHeader
        title="Template Administration"
        subtitle="Review existing resort templates and manage override capabilities."
        actions={<ButtonLink to="/admin/templates/new">Create Template</ButtonLink>}
      />
      <NavigationFeedback />
      <TemplateList
        templates={list.data}
        loading={list.isPending}
        refreshing={list.isFetching && !list.isPending}
        error={list.error ? errorMessage(list.error, templateMessages.loadListFailed) : null}
        onRefresh={() => void list.refetch()}
        health={health}
      />
    </>
  );
}
