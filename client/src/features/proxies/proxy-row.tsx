import { Badge, Button, Checkbox, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { proxyMessages, type WebProxy } from '@resort/shared';
import dayjs from 'dayjs';
import { memo } from 'react';
import classes from '@/components/responsive-table.module.css';

export interface ProxyRowHandlers {
  onSelect: (id: string, selected: boolean) => void;
  onToggle: (proxy: WebProxy, isActive: boolean) => void;
  onEdit: (proxy: WebProxy) => void;
  onResetFailures: (proxy: WebProxy) => void;
  onDelete: (proxy: WebProxy) => void;
}

export function proxyAddress(proxy: Pick<WebProxy, 'protocol' | 'host' | 'port'>): string {
  const host = proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host;
  return `${proxy.protocol}://${host}:${proxy.port}`;
}

const when = (iso: string | null) => (iso ? dayjs(iso).format('MMM D, YYYY h:mm:ss A') : '—');

/** Reset is pointless when nothing has failed: both counters zero disables it. */
export function canResetFailures(proxy: Pick<WebProxy, 'failureCount' | 'consecutiveFailures'>): boolean {
  return proxy.failureCount > 0 || proxy.consecutiveFailures > 0;
}

export const ProxyRow = memo(function ProxyRow({
  proxy,
  selected,
  busy,
  handlers,
}: {
  proxy: WebProxy;
  selected: boolean;
  busy: boolean;
  handlers: ProxyRowHandlers;
}) {
  const address = proxyAddress(proxy);
  return (
    <Table.Tr data-testid="proxy-row" bg={selected ? 'var(--mantine-color-blue-light)' : undefined}>
      <Table.Td>
        <Checkbox
          aria-label={`Select ${address}`}
          checked={selected}
          onChange={(event) => handlers.onSelect(proxy.id, event.currentTarget.checked)}
        />
      </Table.Td>
      <Table.Td data-label="Proxy" className={classes.wrap}>
        <Text size="sm" fw={600} ff="monospace">
          {address}
        </Text>
        {proxy.username ? <Text size="xs" c="dimmed">{`User: ${proxy.username}`}</Text> : null}
      </Table.Td>
      <Table.Td data-label="Status">
        <Stack gap={4} align="flex-start">
          <Badge color={proxy.isActive ? 'teal' : 'gray'} variant="light">
            {proxy.isActive ? 'Active' : 'Disabled'}
          </Badge>
          {proxy.autoDisabled ? (
            <Text size="xs" c="red">
              {proxyMessages.autoDisabled}
            </Text>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td data-label="Counts">
        <Text size="sm">{`${proxy.successCount} ok · ${proxy.failureCount} failed`}</Text>
        <Text size="xs" c={proxy.consecutiveFailures > 0 ? 'red' : 'dimmed'}>
          {`${proxy.consecutiveFailures} consecutive failures`}
        </Text>
      </Table.Td>
      <Table.Td data-label="Last attempt" className={classes.wrap}>
        <Text size="sm">{`Last attempt: ${when(proxy.lastAttemptAt)}`}</Text>
        <Text size="xs" c="dimmed">
          {`Last success: ${when(proxy.lastSuccessfulAt)}${proxy.lastSuccessfulUrl ? ` · ${proxy.lastSuccessfulUrl}` : ''}`}
        </Text>
        <Text size="xs" c="dimmed">
          {`Last failure: ${when(proxy.lastFailureAt)}${proxy.lastFailureReason ? ` · ${proxy.lastFailureReason}` : ''}`}
        </Text>
      </Table.Td>
      <Table.Td data-label="Actions">
        <Group gap="xs" wrap="wrap">
          <Switch
            aria-label={`Active ${address}`}
            checked={proxy.isActive}
            disabled={busy}
            onChange={(event) => handlers.onToggle(proxy, event.currentTarget.checked)}
          />
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit ${address}`}
            onClick={() => handlers.onEdit(proxy)}
          >
            Edit
          </Button>
          <Button
            size="xs"
            variant="default"
            aria-label={`Reset failures of ${address}`}
            disabled={busy || !canResetFailures(proxy)}
            onClick={() => handlers.onResetFailures(proxy)}
          >
            Reset failures
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            aria-label={`Delete ${address}`}
            disabled={busy}
            onClick={() => handlers.onDelete(proxy)}
          >
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
});
