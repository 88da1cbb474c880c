import { Badge, Group, Stack, Text } from '@mantine/core';
import { displayLabel, type NotificationService } from '@resort/shared';
import { serviceTypeLabels } from '../../../../../components/notifications/service-type-labels.ts';

type ListedService = Pick<NotificationService, 'id' | 'type' | 'label' | 'isActive' | 'config'>;

function destination(service: ListedService): string {
  const c = service.config as Record<string, unknown>;
  const value = c.url ?? c.toEmail ?? c.toNumber;
  return typeof value === 'string' ? value : '';
}

/** The account's active services; labels are cut at 40 characters for display. */
export function NotificationServiceList({ services }: { services: readonly ListedService[] }) {
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
              {displayLabel({ type: service.type, label: service.label || serviceTypeLabels[service.type] })}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {destination(service)}
            </Text>
          </Stack>
          <Badge variant="light">{serviceTypeLabels[service.type] ?? service.type}</Badge>
        </Group>
      ))}
    </Stack>
  );
}
