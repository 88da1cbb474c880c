import { Table } from '@mantine/core';
import type { SettableAlertStatus } from '@resort/shared';
import { Link } from '@tanstack/react-router';
import { memo } from 'react';
import type { AlertRecord } from '@/api/contracts.ts';
import { AlertStatusBadge } from '@/components/status-badge.tsx';
import { AlertActivity } from '@/features/alerts/alert-activity.tsx';
import { alertDatesText, alertDisplayTitle } from '@/features/alerts/alert-text.ts';
import { useNow } from '@/features/alerts/alert-time.tsx';
import classes from '@/features/alerts/alerts.module.css';
import { AlertRowActions } from './alert-row-actions.tsx';

/** "Alert: {title}", linking to the alert's page. */
export function AlertTitleLink({ alert }: { alert: AlertRecord }) {
  return (
    <Link to="/alerts/$alertId" params={{ alertId: alert.id }} className={classes.titleLink}>
      {`Alert: ${alertDisplayTitle(alert)}`}
    </Link>
  );
}

/** What one row (or phone card) of the list needs. */
export interface AlertItemProps {
  alert: AlertRecord;
  showOwner: boolean;
  busy: boolean;
  handlers: AlertRowHandlers;
  now: number;
}

/** What the table (or the phone cards) needs: a page of alerts. */
export interface AlertPageProps {
  alerts: readonly AlertRecord[];
  showOwner: boolean;
  busyId: string | null;
  handlers: AlertRowHandlers;
}

export interface AlertRowHandlers {
  onSetStatus: (alert: AlertRecord, status: SettableAlertStatus) => void;
  onRemove: (alert: AlertRecord) => void;
  /** The planner's own list: moves the alert to the archive (not offered on the admin list). */
  onArchive?: (alert: AlertRecord) => void;
}

const AlertRow = memo(function AlertRow({ alert, showOwner, busy, handlers, now }: AlertItemProps) {
  const services = alert.notificationServices?.length ?? 0;
  return (
    <Table.Tr data-testid="alert-row">
      <Table.Td className={classes.cell}>
        <div className={classes.primary}>{alert.template?.name ?? '—'}</div>
        <div>
          <AlertTitleLink alert={alert} />
        </div>
        {services > 0 ? <div className={classes.muted}>{`Notifications: ${services}`}</div> : null}
      </Table.Td>
      {showOwner ? (
        <Table.Td className={classes.cell}>
          <div>{alert.user?.email ?? '—'}</div>
          {alert.user?.name ? <div className={classes.muted}>{alert.user.name}</div> : null}
        </Table.Td>
      ) : null}
      <Table.Td className={classes.cell}>{alert.partyName || '—'}</Table.Td>
      <Table.Td className={classes.cell} data-testid="alert-dates">
        {alertDatesText(alert)}
      </Table.Td>
      <Table.Td>
        <AlertStatusBadge status={alert.status} />
      </Table.Td>
      <Table.Td>
        <AlertActivity alert={alert} now={now} />
      </Table.Td>
      <Table.Td>
        <AlertRowActions alert={alert} busy={busy} {...handlers} />
      </Table.Td>
    </Table.Tr>
  );
});

export function AlertTable({ alerts, showOwner, busyId, handlers }: AlertPageProps) {
  const now = useNow();
  return (
    <Table.ScrollContainer minWidth={showOwner ? 1080 : 940}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Resort/Party</Table.Th>
            {showOwner ? <Table.Th>Owner</Table.Th> : null}
            <Table.Th>Family/Party</Table.Th>
            <Table.Th>Date Range</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Activity</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {alerts.map((alert) => (
            <AlertRow
              key={alert.id}
              alert={alert}
              showOwner={showOwner}
              busy={busyId === alert.id}
              handlers={handlers}
              now={now}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
