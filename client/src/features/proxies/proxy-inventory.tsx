import { Button, Checkbox, Group, Table, Text } from '@mantine/core';
import { proxyMessages, type WebProxy } from '@resort/shared';
import { useMemo, useState } from 'react';
import classes from '@/components/responsive-table.module.css';
import { EmptyState, ErrorState, LoadingState } from '@/components/states.tsx';
import { ProxyRow, type ProxyRowHandlers } from './proxy-row.tsx';

export const proxyTexts = {
  loading: 'Loading proxies…',
  empty: 'No proxies yet. Import a list or register one above.',
} as const;

export interface ProxyInventoryHandlers extends Omit<ProxyRowHandlers, 'onSelect'> {
  /** Without ids the status applies to every proxy. */
  onBulkStatus: (isActive: boolean, ids?: string[]) => void;
  onDeleteSelected: (proxies: WebProxy[]) => void;
  /** A selection-based action was used with nothing selected. */
  onNothingSelected: (message: string) => void;
}

/** The proxy table with counts, last attempts, per-row actions and multi-select bulk actions. */
export function ProxyInventory({
  proxies,
  loading,
  error,
  busyIds,
  bulkBusy,
  onRetry,
  handlers,
}: {
  proxies: readonly WebProxy[] | undefined;
  loading: boolean;
  error: string | null;
  busyIds: ReadonlySet<string>;
  bulkBusy: boolean;
  onRetry: () => void;
  handlers: ProxyInventoryHandlers;
}) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  // Proxies deleted elsewhere drop out of the selection by themselves.
  const selected = useMemo(
    () => (proxies ?? []).filter((p) => picked.has(p.id)).map((p) => p.id),
    [proxies, picked],
  );
  const rowHandlers = useMemo<ProxyRowHandlers>(
    () => ({
      ...handlers,
      onSelect: (id, on) =>
        setPicked((prev) => {
          const next = new Set(prev);
          if (on) next.add(id);
          else next.delete(id);
          return next;
        }),
    }),
    [handlers],
  );

  if (loading) return <LoadingState label={proxyTexts.loading} />;
  if (error) return <ErrorState message={error} onRetry={onRetry} />;
  if (!proxies || proxies.length === 0) return <EmptyState message={proxyTexts.empty} />;

  const all = selected.length === proxies.length;
  const some = selected.length > 0;
  const scope = some ? `selected (${selected.length})` : 'all';
  const ids = some ? selected : undefined;

  return (
    <>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Text size="sm" c="dimmed">
          {some
            ? `${selected.length} of ${proxies.length} selected`
            : `${proxies.length} proxies · nothing selected: bulk status applies to all`}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            loading={bulkBusy}
            onClick={() => handlers.onBulkStatus(true, ids)}
          >
            {`Enable ${scope}`}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="gray"
            loading={bulkBusy}
            onClick={() => handlers.onBulkStatus(false, ids)}
          >
            {`Disable ${scope}`}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            disabled={bulkBusy}
            onClick={() =>
              some
                ? handlers.onDeleteSelected(proxies.filter((p) => picked.has(p.id)))
                : handlers.onNothingSelected(proxyMessages.selectFirst)
            }
          >
            Delete selected
          </Button>
        </Group>
      </Group>
      <Table verticalSpacing="sm" highlightOnHover className={classes.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all proxies"
                checked={all}
                indeterminate={some && !all}
                onChange={() => setPicked(all ? new Set() : new Set(proxies.map((p) => p.id)))}
              />
            </Table.Th>
            <Table.Th>Proxy</Table.Th>
            <Table.Th miw={110}>Status</Table.Th>
            <Table.Th>Counts</Table.Th>
            <Table.Th>Last attempt</Table.Th>
            <Table.Th w={230}>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {proxies.map((proxy) => (
            <ProxyRow
              key={proxy.id}
              proxy={proxy}
              selected={picked.has(proxy.id)}
              busy={busyIds.has(proxy.id)}
              handlers={rowHandlers}
            />
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
