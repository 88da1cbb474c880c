import { Button, Card, Group, Table, Text } from '@mantine/core';
import {
  dispatchStatusLabels,
  displayLabel,
  type NotificationRecord,
  notificationMessages,
} from '@resort/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { serviceTypeLabels } from '@/components/service-type-labels.ts';
import { EmptyState, ErrorState, LoadingState } from '@/components/states.tsx';
import { WholeBadge } from '@/components/whole-badge.tsx';

export const RECENT_NOTIFICATIONS_LIMIT = 10;

const statusColors: Record<string, string> = { PENDING: 'yellow', SUCCESS: 'teal', FAILURE: 'red' };

/** Health notices say their kind (docs/product.md, "Alert health"); matches and resolutions need no label. */
const kindLabels: Record<string, { label: string; color: string }> = {
  FAILING: { label: 'Cannot see', color: 'red' },
  DRIFTED: { label: 'Answer changed', color: 'orange' },
  RECOVERED: { label: 'Works again', color: 'teal' },
  TEMPLATE_FAILING: { label: 'Template broken', color: 'red' },
};

function alertLabel(record: NotificationRecord): string {
  const r = record.registration;
  if (!r) return '—';
  return [r.title || r.template?.name, r.partyName].filter(Boolean).join(' · ') || '—';
}

export function NotificationTable({ records }: { records: readonly NotificationRecord[] }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Channel</Table.Th>
            <Table.Th>Registration</Table.Th>
            <Table.Th>Message</Table.Th>
            <Table.Th>Sent</Table.Th>
            <Table.Th>Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((record) => {
            const service = record.notificationService;
            const sent = record.dispatchedAt ?? record.createdAt;
            return (
              <Table.Tr key={record.id}>
                <Table.Td>
                  <Text size="sm">{service ? (serviceTypeLabels[service.type] ?? service.type) : '—'}</Text>
                  {service?.label ? (
                    <Text size="xs" c="dimmed">
                      {displayLabel(service)}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{alertLabel(record)}</Table.Td>
                <Table.Td>
                  {kindLabels[record.kind] ? (
                    <WholeBadge
                      size="xs"
                      variant="light"
                      color={kindLabels[record.kind]!.color}
                      data-testid="notification-kind"
                    >
                      {kindLabels[record.kind]!.label}
                    </WholeBadge>
                  ) : null}
                  <Text size="sm" lineClamp={2}>
                    {record.message}
                  </Text>
                  {record.error ? (
                    <Text size="xs" c="red">
                      {record.error}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {sent ? dayjs(sent).format('MMM D, YYYY h:mm A') : '—'}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <WholeBadge color={statusColors[record.status] ?? 'gray'} variant="light">
                    {dispatchStatusLabels[record.status] ?? record.status}
                  </WholeBadge>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Offers browser notifications for new matches while the tab is open; shown
 * only while the browser has not been asked yet. Whether they are shown then is the push preference.
 */
function BrowserNotificationsButton() {
  const [permission, setPermission] = useState(() =>
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );
  if (permission !== 'default') return null;
  return (
    <Button
      size="xs"
      variant="subtle"
      onClick={async () => setPermission(await Notification.requestPermission())}
    >
      Notify me in this browser
    </Button>
  );
}

/** The last ten deliveries to the user's channels, with Refresh; live events refresh it. */
export function RecentNotifications() {
  const api = useApi();
  const history = useQuery(api.notifications.history(RECENT_NOTIFICATIONS_LIMIT));

  return (
    <Card withBorder id="recent-notifications">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Recent notifications</Text>
        <Group gap="xs">
          <BrowserNotificationsButton />
          <Button size="xs" variant="light" onClick={() => history.refetch()} loading={history.isFetching}>
            Refresh
          </Button>
        </Group>
      </Group>
      {history.isPending ? (
        <LoadingState label="Loading recent notifications…" />
      ) : history.isError ? (
        <ErrorState
          message={errorMessage(history.error, notificationMessages.loadRecentFailed)}
          onRetry={() => history.refetch()}
        />
      ) : history.data.length === 0 ? (
        <EmptyState message="No notifications yet. They appear here when an alert's rules match." />
      ) : (
        <NotificationTable records={history.data} />
      )}
    </Card>
  );
}
