import {
  type Alert,
  type AlertActivity,
  type AlertHealth,
  type AlertRow,
  type AlertStatus,
  alertPolledDateRange,
  type EditableField,
  type HttpMethod,
  healthWords,
  isPolledStatus,
  type Overrides,
  type PollClass,
  readStayStates,
  type StayWindow,
  type WatchConfig,
  watchConfigSchema,
} from '@resort/shared';
import type { AlertView, ServiceLink } from './alerts.repo.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A stored watch config passed validation on write; parsing again only fills defaults added since. */
function readWatchConfig(raw: unknown): WatchConfig {
  const parsed = watchConfigSchema.safeParse(raw);
  return parsed.success
    ? parsed.data
    : { all: [], any: [], notifyOn: 'everyMatch', notifyOnResolved: false, debounceSeconds: 0 };
}

/** `links` are this alert's notification services. */
export function toAlert(row: AlertView, links: ServiceLink[]): Alert {
  return {
    id: row.id,
    userId: row.user_id,
    status: row.status as AlertStatus,
    title: row.title,
    templateId: row.template_id,
    template: {
      name: row.template_name,
      defaultBody: row.template_default_body as Alert['template']['defaultBody'],
      defaultQuery: row.template_default_query,
      templateGroupId: row.template_group_id,
    },
    partyName: row.party_name,
    tags: row.tags,
    user: { email: row.user_email, name: row.user_name },
    customHeaders: row.custom_headers,
    customQuery: row.custom_query,
    customBody: row.custom_body as Alert['customBody'],
    overrides: row.overrides as Overrides,
    stayWindow: (row.stay_window as StayWindow[] | null) ?? null,
    stayStates: row.stay_window ? readStayStates(row.last_values) : null,
    watchConfig: readWatchConfig(row.watch_config),
    pollingIntervalSeconds: row.polling_interval_seconds,
    urgent: row.urgent,
    snoozedUntil: iso(row.snoozed_until),
    notificationServices: links.map(({ notificationServiceId, type, label, isActive }) => ({
      notificationServiceId,
      type,
      label,
      isActive,
    })),
    lastRunAt: iso(row.last_run_at),
    lastNotifiedAt: iso(row.last_notified_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function groupLinks(links: ServiceLink[]): Map<string, ServiceLink[]> {
  const byAlert = new Map<string, ServiceLink[]>();
  for (const link of links) {
    const list = byAlert.get(link.alertId);
    if (list) list.push(link);
    else byAlert.set(link.alertId, [link]);
  }
  return byAlert;
}

/** The dates the alert polls: the shared builder's request for it, read with the lists' start/end key rule. */
function polledDateRange(row: AlertView): AlertRow['dateRange'] {
  return alertPolledDateRange(
    {
      targetUrl: row.template_target_url,
      method: row.template_method as HttpMethod,
      defaultHeaders: row.template_default_headers,
      defaultQuery: row.template_default_query,
      defaultBody: row.template_default_body,
      editableFields: row.template_editable_fields as EditableField[],
    },
    {
      customHeaders: row.custom_headers,
      customQuery: row.custom_query,
      customBody: row.custom_body,
      overrides: row.overrides as Overrides,
    },
  );
}

function activityOf(row: AlertView): AlertActivity {
  return {
    lastCheckedAt: iso(row.last_run_at),
    nextCheckAt: isPolledStatus(row.status) ? iso(row.next_due_at) : null,
    availabilityChangedAt: iso(row.availability_changed_at),
    lastError: row.last_error,
    lastStatusCode: row.last_status_code,
    consecutiveErrors: row.consecutive_errors,
    checkRequestedAt: iso(row.check_requested_at),
    health: row.health as AlertHealth,
    healthCause: row.health_cause as PollClass | null,
    healthSince: iso(row.health_since),
    healthWords: healthWords(row.health as AlertHealth, row.health_cause as PollClass | null),
    lastSuccessAt: iso(row.last_success_at),
  };
}

/** A list row: the alert, the dates it polls and its life at a glance. */
export function toAlertRow(row: AlertView, links: ServiceLink[]): AlertRow {
  return { ...toAlert(row, links), dateRange: polledDateRange(row), activity: activityOf(row) };
}
