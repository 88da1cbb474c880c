import { type AlertPayload, alertListMessages, templateMessages } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useApi } from '@/api/api-context.tsx';
import type { AlertRecord, TemplateRecord } from '@/api/contracts.ts';
import { errorMessage, errorStatus } from '@/api/http.ts';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { ButtonLink } from '@/components/links.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import type { Viewer } from '@/session/use-session.ts';
import { AlertForm } from './alert-form.tsx';
import type { ServiceChoice } from './delivery-section.tsx';

export const alertFormTexts = {
  loadingTemplates: 'Loading templates…',
  loadingAlert: 'Loading alert…',
  created: (name: string) => `Alert "${name}" created.`,
  updated: (name: string) => `Alert "${name}" updated.`,
} as const;

/** An id that names no alert the caller can reach (missing, another user's, malformed). */
const isMissing = (error: unknown) => [400, 404].includes(errorStatus(error) ?? 0);

/**
 * The alert create/edit form (docs/product.md, "Screens and routes"): `alertId` names the alert
 * being edited.
 */
export function AlertFormScreen({ alertId, viewer }: { alertId?: string; viewer: Viewer }) {
  return (
    <>
      <PageHeader
        title="Create an alert"
        subtitle={
          alertId
            ? `Editing alert ${alertId}.`
            : 'Pick a template, set the dates and party, choose the rules and where to be notified.'
        }
        actions={
          <ButtonLink to="/alerts" variant="default">
            Back to alerts
          </ButtonLink>
        }
      />
      <NavigationFeedback />
      <WiredAlertForm key={alertId ?? 'new'} alertId={alertId} viewer={viewer} />
    </>
  );
}

/** The form wired to the API: templates, groups, services, the edited alert, save and test. */
function WiredAlertForm({ alertId, viewer }: { alertId: string | undefined; viewer: Viewer }) {
  const api = useApi();
  const navigate = useNavigate();
  const { isAdmin } = viewer;
  const templates = useQuery(api.templates.list());
  const groups = useQuery(api.templateGroups.list());
  const summary = useQuery(api.account.summary());
  const preferences = useQuery(api.preferences.get());
  const editing = useQuery({
    ...(isAdmin ? api.alertEditor.adminGet(alertId ?? '') : api.alertEditor.get(alertId ?? '')),
    enabled: alertId !== undefined,
    retry: false,
  });
  // An alert kept on a template that is no longer listed (inactive) is still edited on it.
  const listed = templates.data ?? [];
  const missingTemplateId =
    editing.data && templates.isSuccess && !listed.some((t) => t.id === editing.data.templateId)
      ? editing.data.templateId
      : undefined;
  const extraTemplate = useQuery({
    ...api.templates.get(missingTemplateId ?? ''),
    enabled: missingTemplateId !== undefined,
    retry: false,
  });
  const { mutateAsync: create } = useMutation(api.alertEditor.create());
  const { mutateAsync: update } = useMutation(api.alertEditor.update());
  const { mutateAsync: adminUpdate } = useMutation(api.alertEditor.adminUpdate());
  const { mutateAsync: test } = useMutation(api.alertEditor.test());

  const notFound = alertId !== undefined && editing.isError && isMissing(editing.error);
  useEffect(() => {
    if (!notFound || alertId === undefined) return;
    // The message shows and the parameter is removed.
    void navigate({
      to: '/configure/alerts',
      search: {},
      replace: true,
      state: { flash: { tone: 'error', message: alertListMessages.notFoundForEditing(alertId) } },
    });
  }, [notFound, alertId, navigate]);

  // A new alert's preselected services follow the preferences, so they are read first (a failed
  // read falls back to every active service).
  const waitingForPreferences = alertId === undefined && preferences.isPending;
  if (
    templates.isPending ||
    waitingForPreferences ||
    (alertId !== undefined && (editing.isPending || notFound))
  ) {
    return <LoadingState label={alertId ? alertFormTexts.loadingAlert : alertFormTexts.loadingTemplates} />;
  }
  if (alertId !== undefined && editing.isError) {
    return (
      <ErrorState
        message={errorMessage(editing.error, alertListMessages.loadFailedFallback)}
        onRetry={() => void editing.refetch()}
      />
    );
  }
  if (missingTemplateId && extraTemplate.isPending)
    return <LoadingState label={alertFormTexts.loadingAlert} />;

  const alert: AlertRecord | null = alertId !== undefined ? (editing.data ?? null) : null;
  const allTemplates: TemplateRecord[] = extraTemplate.data ? [...listed, extraTemplate.data] : listed;
  const othersAlert = alert !== null && alert.userId !== viewer.userId;
  // An admin editing another user's alert sees that user's linked services, not their own.
  const services: ServiceChoice[] = othersAlert
    ? alert.notificationServices.map((s) => ({
        id: s.notificationServiceId,
        type: s.type,
        label: s.label,
        isActive: s.isActive,
      }))
    : (summary.data?.notificationServices ?? []);

  async function save(payload: AlertPayload) {
    const saved = alert
      ? await (isAdmin ? adminUpdate({ id: alert.id, ...payload }) : update({ id: alert.id, ...payload }))
      : await create(payload);
    const name = saved.title ?? saved.template.name;
    await navigate({
      to: '/alerts',
      state: {
        flash: { tone: 'success', message: (alert ? alertFormTexts.updated : alertFormTexts.created)(name) },
      },
    });
  }

  return (
    <AlertForm
      key={alert?.id ?? 'new'}
      templates={allTemplates}
      groups={groups.data ?? []}
      templatesError={
        templates.error ? errorMessage(templates.error, templateMessages.loadListFailedRefresh) : null
      }
      services={services}
      preferences={preferences.data}
      isAdmin={isAdmin}
      editing={alert}
      onSubmit={save}
      onTest={(payload) => test(payload)}
      onCancel={() =>
        void navigate({
          to: '/configure/alerts',
          search: {},
          replace: true,
          state: { flash: { tone: 'success', message: alertListMessages.editingCancelled } },
        })
      }
    />
  );
}
