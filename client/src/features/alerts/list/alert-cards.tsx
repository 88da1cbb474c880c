import { Group, Stack } from '@mantine/core';
import { memo } from 'react';
import { AlertStatusBadge } from '@/components/status-badge.tsx';
import { AlertActivity } from '@/features/alerts/alert-activity.tsx';
import { alertDatesText } from '@/features/alerts/alert-text.ts';
import { useNow } from '@/features/alerts/alert-time.tsx';
import classes from '@/features/alerts/alerts.module.css';
import { AlertRowActions } from './alert-row-actions.tsx';
import { type AlertItemProps, type AlertPageProps, AlertTitleLink } from './alert-table.tsx';

const AlertCard = memo(function AlertCard({ alert, showOwner, busy, handlers, now }: AlertItemProps) {
  return (
    <article
      className={`${classes.card} ${classes.cell}`}
      data-testid="alert-row"
      aria-label={alert.title ?? alert.id}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <div>
          <div className={classes.primary}>{alert.template?.name ?? '—'}</div>
          <AlertTitleLink alert={alert} />
          {alert.partyName ? <div className={classes.muted}>{alert.partyName}</div> : null}
          {showOwner && alert.user ? <div className={classes.muted}>{alert.user.email}</div> : null}
        </div>
        <AlertStatusBadge status={alert.status} />
      </Group>
      <div data-testid="alert-dates">{alertDatesText(alert)}</div>
      <AlertActivity alert={alert} now={now} />
      <Group justify="flex-end" mt={4}>
        <AlertRowActions alert={alert} busy={busy} {...handlers} />
      </Group>
    </article>
  );
});

/** The alert list on a phone (below 640 px): one card per alert with title, dates, status, actions. */
export function AlertCards({ alerts, showOwner, busyId, handlers }: AlertPageProps) {
  const now = useNow();
  return (
    <Stack gap="sm" data-testid="alert-cards">
      {alerts.map((alert) => (
        <AlertCard
          key={alert.id}
          alert={alert}
          showOwner={showOwner}
          busy={busyId === alert.id}
          handlers={handlers}
          now={now}
        />
      ))}
    </Stack>
  );
}
