import { templateGroupMessages, templateMessages } from '@resort/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useApi } from '@/api/api-context.tsx';
import type { TemplateRecord } from '@/api/contracts.ts';
import { errorMessage } from '@/api/http.ts';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { ButtonLink } from '@/components/links.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { TemplateEditor } from './template-editor.tsx';

export const templateScreenTexts = {
  loading: 'Loading template…',
  created: (name: string) => `Template "${name}" created.`,
  deleted: (name: string) => `Template "${name}" deleted.`,
} as const;

/** /admin/templates/new (no `templateId`) and /admin/templates/{templateId}/edit. */
export function TemplateEditorScreen({ templateId }: { templateId?: string }) {
  const back = (
    <ButtonLink to="/admin/templates" variant="default">
      Back
    </ButtonLink>
  );
  if (templateId === undefined) {
    return (
      <>
        <PageHeader
          title="Create Template"
          subtitle="Describe the upstream availability request once; users build alerts from it."
          actions={back}
        />
        <WiredTemplateEditor />
      </>
    );
  }
  return (
    <>
      <PageHeader title="Edit Template" subtitle={`Template ${templateId}`} actions={back} />
      <NavigationFeedback />
      <WiredTemplateEditor templateId={templateId} />
    </>
  );
}

/** The editor wired to the API: create or edit, groups, generators, live test and delete. */
function WiredTemplateEditor({ templateId }: { templateId?: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const existing = useQuery({ ...api.templates.get(templateId ?? ''), enabled: templateId !== undefined });
  const groups = useQuery(api.templateGroups.list());
  const generators = useQuery(api.templates.generators());
  const { mutateAsync: create } = useMutation(api.templates.create());
  const { mutateAsync: update } = useMutation(api.templates.update());
  const { mutateAsync: remove } = useMutation(api.templates.remove());
  const { mutateAsync: test } = useMutation(api.templates.test());
  const { mutateAsync: createGroup } = useMutation(api.templateGroups.create());

  if (templateId !== undefined) {
    if (existing.isPending) return <LoadingState label={templateScreenTexts.loading} />;
    if (existing.error) {
      return (
        <ErrorState
          message={errorMessage(existing.error, templateMessages.loadFailed)}
          onRetry={() => void existing.refetch()}
        />
      );
    }
  }
  const template: TemplateRecord | null = templateId !== undefined ? (existing.data ?? null) : null;

  return (
    <TemplateEditor
      key={template?.id ?? 'new'}
      template={template}
      groups={groups.data}
      groupsError={groups.error ? errorMessage(groups.error, templateGroupMessages.loadFailed) : null}
      generators={generators.data}
      onSave={async (data) => {
        if (!template) {
          const created = await create(data);
          // Replacing the history entry: Back from the edit page must not return to an empty form.
          await navigate({
            to: '/admin/templates/$templateId/edit',
            params: { templateId: created.id },
            replace: true,
            state: { flash: { tone: 'success', message: templateScreenTexts.created(created.name) } },
          });
          return created;
        }
        return update({ id: template.id, ...data });
      }}
      onDelete={async () => {
        if (!template) return;
        await remove({ id: template.id });
        await navigate({
          to: '/admin/templates',
          state: { flash: { tone: 'success', message: templateScreenTexts.deleted(template.name) } },
        });
      }}
      onTest={(data) => test({ id: template?.id ?? '', template: data })}
      onCreateGroup={(name) => createGroup({ name })}
      onLoadSample={(input) => queryClient.fetchQuery(api.templates.generatorSample(input))}
    />
  );
}
