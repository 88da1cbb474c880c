import { Table } from '@mantine/core';
import { deriveAlertDateRange, formatDateRange, type SettableAlertStatus } from '@resort/shared';
import { memo } from 'react';
import type { AlertRecord } from '../../api/contracts.ts';
import { alertDisplayTitle } from './alert-filters.ts';
import { AlertRowActions } from './alert-row-actions.tsx';
import classes from './alert-table.module.css';
import { AlertStatusBadge } from './status-badge.tsx';

export interface AlertRowHandlers {
  onSetStatus: (alert: AlertRecord, status: SettableAlertStatus) => void;
  onRemove: (alert: AlertRecord) => void;
}

const AlertRow = memo(function AlertRow({
  alert,
  showOwner,
  busy,
  handlers,
}: {
  alert: AlertRecord;
  showOwner: boolean;
  busy: boolean;
  handlers: AlertRowHandlers;
}) {
  const services = alert.notificationServices?.length ?? 0;
  return (
    <Table.Tr data-testid="alert-row">
      <Table.Td className={classes.cell}>
        <div className={classes.primary}>{alert.template?.name ?? '—'}</div>
        <div>{`Alert: ${alertDisplayTitle(alert)}`}</div>
        {services > 0 ? <div className={classes.muted}>{`Notifications: ${services}`}</div> : null}
      </Table.Td>
      {showOwner ? (
        <Table.Td className={classes.cell}>
          <div>{alert.user?.email ?? '—'}</div>
          {alert.user?.name ? <div className={classes.muted}>{alert.user.name}</div> : null}
        </Table.Td>
      ) : null}
      <Table.Td className={classes.cell}>{alert.partyName || '—'}</Table.Td>
      <Table.Td className={classes.cell}>{formatDateRange(deriveAlertDateRange(alert))}</Table.Td>
      <Table.Td>
        <AlertStatusBadge status={alert.status} />
      </Table.Td>
      <Table.Td>
        <AlertRowActions alert={alert} busy={busy} {...handlers} />
      </Table.Td>
    </Table.Tr>
  );
});

export function AlertTable({
  alerts,
  showOwner,
  busyId,
  handlers,
}: {
  alerts: readonly AlertRecord[];
  showOwner: boolean;
  busyId: string | null;
  handlers: AlertRowHandlers;
}) {
  return (
    <Table.ScrollContainer minWidth={showOwner ? 900 : 760}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Resort/Party</Table.Th>
            {showOwner ? <Table.Th>Owner</Table.Th> : null}
            <Table.Th>Family/Party</Table.Th>
            <Table.Th>Date Range</Table.Th>
            <Table.Th>Status</Table.Th>
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
            />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
