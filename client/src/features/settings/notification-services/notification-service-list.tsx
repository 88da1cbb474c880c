import { Badge, Group, Stack, Text } from '@mantine/core';
import { displayLabel, type NotificationService } from '@resort/shared';
import type { ReactNode } from 'react';
import { serviceTypeLabels } from '@/components/service-type-labels.ts';

export type ListedService = Pick<
  NotificationService,
  'id' | 'type' | 'label' | 'isActive' | 'config' | 'signingSecret' | 'deactivatedReason'
> &
  Partial<Pick<NotificationService, 'verification'>>;

function destination(service: ListedService): string {
  const c = service.config as Record<string, unknown>;
  if (service.type === 'NTFY') return `${String(c.url).replace(/\/+$/, '')}/${String(c.topic)}`;
  const value = c.url ?? c.toEmail ?? c.toNumber ?? c.chatId;
  return typeof value === 'string' ? value : '';
}

/** The name a service goes by on screen: its label (cut at 40 characters) or its type. */
export function serviceName(service: Pick<ListedService, 'type' | 'label'>): string {
  return displayLabel({ type: service.type, label: service.label || serviceTypeLabels[service.type] });
}

/**
 * The account's services, active ones first; a disabled one says so (and why, when the server
 * turned it off). `actions` renders each row's controls.
 */
export function NotificationServiceList({
  services,
  actions,
  verification,
}: {
  services: readonly ListedService[];
  actions?: (service: ListedService) => ReactNode;
  /** Shown under an e-mail or SMS channel that is not verified (or predates verification). */
  verification?: (service: ListedService, state: 'unverified' | 'existing') => ReactNode;
}) {
  if (services.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No active notification services yet. Add one below.
      </Text>
    );
  }
  const ordered = [...services].sort((a, b) => Number(b.isActive) - Number(a.isActive));
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {ordered.map((service) => (
        <Group key={service.id} component="li" justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm" fw={500} title={service.label ?? undefined}>
                {serviceName(service)}
              </Text>
              <Badge variant="light" size="sm">
                {serviceTypeLabels[service.type] ?? service.type}
              </Badge>
              {service.isActive ? null : (
                <Badge variant="light" color="gray" size="sm">
                  Disabled
                </Badge>
              )}
              {service.verification === 'unverified' ? (
                <Badge variant="light" color="orange" size="sm">
                  Not verified
                </Badge>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed" truncate>
              {destination(service)}
            </Text>
            {service.verification === 'unverified' || service.verification === 'existing'
              ? verification?.(service, service.verification)
              : null}
            {!service.isActive && service.deactivatedReason ? (
              <Text size="xs" c="red">
                {service.deactivatedReason}
              </Text>
            ) : null}
          </Stack>
          {actions?.(service)}
        </Group>
      ))}
    </Stack>
  );
}
