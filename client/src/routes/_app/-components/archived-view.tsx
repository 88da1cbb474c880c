import { Button, Card, Checkbox, Group, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { EmptyState } from '../../../components/states.tsx';
import { AUTO_ARCHIVE_DAYS } from '../../../sample/sample-data.ts';
import { useSampleState, useSampleStore } from '../../../sample/sample-store.ts';
import { ConfirmModal } from './confirm-modal.tsx';
import { SampleStatusBadge } from './sample-alert-table.tsx';
import { SampleNotice } from './sample-notice.tsx';
import { toast } from './toast.ts';

export const ARCHIVED_PAGE_SIZE = 25;

/** Archived (local sample data): 25 per page, select, restore, delete permanently. */
export function ArchivedView() {
  const { archived } = useSampleState();
  const store = useSampleStore();
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);

  const pages = Math.max(1, Math.ceil(archived.length / ARCHIVED_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const rows = archived.slice(current * ARCHIVED_PAGE_SIZE, (current + 1) * ARCHIVED_PAGE_SIZE);
  const ids = [...selected].filter((id) => archived.some((a) => a.id === id));
  const allOnPage = rows.length > 0 && rows.every((a) => selected.has(a.id));

  function toggle(id: string) {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function togglePage() {
    setSelected((prev) => {
      const next = new Set(prev);
      for (const a of rows) {
        if (allOnPage) next.delete(a.id);
        else next.add(a.id);
      }
      return next;
    });
  }

  return (
    <>
      <PageHeader
        title="Archived"
        subtitle={`Booked and passed alerts move here after ${AUTO_ARCHIVE_DAYS} days without changes.`}
      />
      <SampleNotice />
      <Card withBorder>
        <Group justify="space-between" mb="sm" wrap="wrap">
          <Text size="sm" c="dimmed">{`${archived.length} archived · ${ids.length} selected`}</Text>
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              disabled={ids.length === 0}
              onClick={() => {
                store.restore(ids);
                setSelected(new Set());
                toast(`${ids.length} alert${ids.length === 1 ? '' : 's'} restored.`);
              }}
            >
              Restore
            </Button>
            <Button
              size="xs"
              color="red"
              variant="light"
              disabled={ids.length === 0}
              onClick={() => setConfirming(true)}
            >
              Delete permanently
            </Button>
          </Group>
        </Group>
        {archived.length === 0 ? (
          <EmptyState message="Nothing archived yet." />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox aria-label="Select this page" checked={allOnPage} onChange={togglePage} />
                  </Table.Th>
                  <Table.Th>Alert</Table.Th>
                  <Table.Th>Dates</Table.Th>
                  <Table.Th>Family</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Last updated</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((alert) => (
                  <Table.Tr key={alert.id}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${alert.label} for ${alert.family}`}
                        checked={selected.has(alert.id)}
                        onChange={() => toggle(alert.id)}
                      />
                    </Table.Td>
                    <Table.Td>{alert.label}</Table.Td>
                    <Table.Td>{`${alert.dates.from} → ${alert.dates.to}`}</Table.Td>
                    <Table.Td>{alert.family}</Table.Td>
                    <Table.Td>
                      <SampleStatusBadge status={alert.status} />
                    </Table.Td>
                    <Table.Td>{alert.updatedAt.slice(0, 10)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" mt="sm">
          <Button size="xs" variant="default" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Prev
          </Button>
          <Text size="sm">{`Page ${current + 1} of ${pages}`}</Text>
          <Button
            size="xs"
            variant="default"
            disabled={current >= pages - 1}
            onClick={() => setPage(current + 1)}
          >
            Next
          </Button>
        </Group>
      </Card>
      <ConfirmModal
        opened={confirming}
        title="Delete permanently"
        message={`Delete ${ids.length} archived alert${ids.length === 1 ? '' : 's'} permanently? This cannot be undone.`}
        confirmLabel="Delete permanently"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          store.deletePermanently(ids);
          setSelected(new Set());
          setConfirming(false);
          toast(`${ids.length} alert${ids.length === 1 ? '' : 's'} deleted permanently.`);
        }}
      />
    </>
  );
}
