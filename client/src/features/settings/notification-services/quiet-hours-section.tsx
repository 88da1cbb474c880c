import { Button, Group, MultiSelect, Select, Stack, Switch, TextInput } from '@mantine/core';
import {
  authMessages,
  DEFAULT_QUIET_HOURS,
  type NotificationService,
  type QuietHours,
  quietHoursMessages,
  quietHoursSchema,
  settingsConfirmationMs,
} from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useFeedback } from '@/components/feedback.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { SectionCard } from '../section-card.tsx';
import { serviceName } from './notification-service-list.tsx';

/** Every IANA zone the browser knows, with the browser's own first. */
function timeZones(): string[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([own, 'UTC', ...all])];
}

function TimeField(props: {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      type="time"
      label={props.label}
      value={props.value}
      error={props.error}
      onChange={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}

/** The form's field of each schema issue path. */
function errorsOf(q: QuietHours): Record<string, string> {
  const result = quietHoursSchema.safeParse(q);
  const errors: Record<string, string> = {};
  if (!result.success)
    for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

/**
 * Quiet hours: a daily window in the planner's time zone during which alerts are held (for every
 * channel or the ones chosen) and sent as one digest per channel when it ends. Urgent alerts pass.
 */
export function QuietHoursSection({ services }: { services: readonly NotificationService[] }) {
  const api = useApi();
  const saved = useQuery(api.quietHours.get());
  const save = useMutation(api.quietHours.update());
  const [q, setQ] = useState<QuietHours>(DEFAULT_QUIET_HOURS);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { feedback: confirmation, show: confirm } = useFeedback({ lastsMs: settingsConfirmationMs });
  const zones = useMemo(timeZones, []);
  useEffect(() => {
    if (saved.data) setQ(saved.data);
  }, [saved.data]);

  async function submit() {
    const found = errorsOf(q);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await save.mutateAsync(q);
      confirm({ tone: 'success', message: quietHoursMessages.saved });
    } catch {
      // Shown through save.error.
    }
  }

  return (
    <SectionCard
      id="settings-quiet-hours"
      title="Quiet hours"
      description="Alerts that match inside the window wait and arrive as one digest per channel when it ends. Alerts marked urgent always go through at once."
      confirmation={confirmation}
      error={save.error ? errorMessage(save.error, quietHoursMessages.saveFailed) : null}
    >
      {saved.isPending ? (
        <LoadingState label="Loading your quiet hours…" />
      ) : saved.isError ? (
        <ErrorState
          message={errorMessage(saved.error, authMessages.loadAccountFailed)}
          onRetry={() => saved.refetch()}
        />
      ) : (
        <Stack gap="sm">
          <Switch
            label="Hold alerts during quiet hours"
            checked={q.enabled}
            onChange={(e) => {
              const enabled = e.currentTarget.checked;
              setQ((v) => ({ ...v, enabled }));
            }}
          />
          <Group grow align="flex-start">
            <TimeField
              label="From"
              value={q.start}
              error={errors.start}
              onChange={(start) => setQ((v) => ({ ...v, start }))}
            />
            <TimeField
              label="Until"
              value={q.end}
              error={errors.end}
              onChange={(end) => setQ((v) => ({ ...v, end }))}
            />
          </Group>
          <Select
            label="Time zone"
            searchable
            allowDeselect={false}
            data={zones}
            value={q.timeZone}
            error={errors.timeZone}
            onChange={(timeZone) => setQ((v) => ({ ...v, timeZone: timeZone ?? v.timeZone }))}
          />
          <MultiSelect
            label="Channels"
            placeholder={q.serviceIds?.length ? undefined : 'All channels'}
            data={services.map((s) => ({ value: s.id, label: serviceName(s) }))}
            value={q.serviceIds ?? []}
            onChange={(ids) => setQ((v) => ({ ...v, serviceIds: ids.length ? ids : null }))}
            clearable
          />
          <Group justify="flex-end">
            <Button onClick={() => void submit()} loading={save.isPending}>
              Save quiet hours
            </Button>
          </Group>
        </Stack>
      )}
    </SectionCard>
  );
}

/** The section with the account's channels to choose from. */
export function QuietHoursSectionForAccount() {
  const api = useApi();
  const summary = useQuery(api.account.summary());
  return <QuietHoursSection services={summary.data?.notificationServices ?? []} />;
}
