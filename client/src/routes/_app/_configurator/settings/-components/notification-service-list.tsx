import { Badge, Group, Stack, Text } from '@mantine/core';
import { notificationServiceTypeLabels, truncateLabel } from '@resort/shared/notification-service.messages';
import type { NotificationServiceRecord } from '../../../../../api/contracts.ts';

function destination(service: NotificationServiceRecord): string {
  const c = service.config;
  const value = c.url ?? c.toEmail ?? c.toNumber;
  return typeof value === 'string' ? value : '';
}

/** The account's active services; labels are cut at 40 characters for display. */
export function NotificationServiceList({ services }: { services: readonly NotificationServiceRecord[] }) {
  const active = services.filter((s) => s.isActive);
  if (active.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No active notification services yet. Add one below.
      </Text>
    );
  }
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {active.map((service) => (
        <Group key={service.id} component="li" justify="space-between" wrap="nowrap">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} title={service.label ?? undefined}>
              {truncateLabel(service.label || notificationServiceTypeLabels[service.type])}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {destination(service)}
            </Text>
          </Stack>
          <Badge variant="light">{notificationServiceTypeLabels[service.type] ?? service.type}</Badge>
        </Group>
      ))}
    </Stack>
  );
}
