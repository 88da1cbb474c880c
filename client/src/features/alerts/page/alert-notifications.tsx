import { Badge, Group, Stack, Text } from '@mantine/core';
import { type AlertInsight, dispatchStatusLabels } from '@resort/shared';
import { serviceTypeLabels } from '@/components/service-type-labels.ts';
import { exactTime } from '@/features/alerts/alert-time.tsx';

const statusColor = { PENDING: 'yellow', SUCCESS: 'green', FAILURE: 'red' } as const;

/** This alert's notifications, newest first, each with its deliveries' status. */
export function AlertNotifications({ notifications }: { notifications: AlertInsight['notifications'] }) {
  if (notifications.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No notifications yet.
      </Text>
    );
  return (
    <Stack gap="sm" data-testid="alert-notifications">
      {notifications.map((n) => (
        <div key={n.id} data-testid="alert-notification">
          <Text size="xs" c="dimmed">
            {exactTime(n.createdAt)}
          </Text>
          <Text size="sm">{n.message}</Text>
          <Group gap={6} mt={2}>
            {n.deliveries.map((d) => (
              <Badge
                key={d.id}
                size="sm"
                variant="light"
                color={statusColor[d.status]}
                title={d.error ?? undefined}
              >
                {`${d.serviceLabel ?? serviceTypeLabels[d.serviceType as keyof typeof serviceTypeLabels] ?? d.serviceType}: ${dispatchStatusLabels[d.status]}`}
              </Badge>
            ))}
          </Group>
        </div>
      ))}
    </Stack>
  );
}
