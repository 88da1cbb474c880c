import { Button, Card, Checkbox, Group, Table, Text } from '@mantine/core';
import { ARCHIVE_PAGE_SIZE, type ArchivedAlert, AUTO_ARCHIVE_DAYS, watchlistMessages } from '@resort/shared';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useVisitAnswer } from '@/api/visit-answer.ts';
import { ConfirmModal } from '@/components/confirm-modal.tsx';
import { useFeedback } from '@/components/feedback.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '@/components/states.tsx';
import { AlertStatusBadge } from '@/components/status-badge.tsx';
import { alertDisplayTitle } from '@/features/alerts/alert-text.ts';

const plural = (n: number) => `${n} alert${n === 1 ? '' : 's'}`;
const nameOf = (a: ArchivedAlert) =>
  alertDisplayTitle({ title: a.title, template: { name: a.templateName } });
/** What a permanent delete takes: the alerts by name, up to three, else their number. */
const deleting = (names: string[]) =>
  names.length === 1
    ? `Delete ${names[0]} permanently? Its notifications and poll history go too.`
    : names.length <= 3
      ? `Delete ${names.slice(0, -1).join(', ')} and ${names.at(-1)} permanently? Their notifications and poll history go too.`
      : `Delete ${plural(names.length)} permanently? Their notifications and poll history go too.`;

/** Archived (server data): 25 per page, select, restore, delete permanently, Prev/Next. */
export function ArchivedScreen() {
  const api = useApi();
  const { show: toast } = useFeedback({ as: 'toast' });
  const [page, setPage] = useState(1);
  const archived = useQuery({ ...api.archive.page(page), placeholderData: keepPreviousData });
  const restore = useMutation(api.archive.restore());
  const purge = useMutation(api.archive.purge());
  /** The selected alerts by id, with their names (a selection may span pages). */
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [confirming, setConfirming] = useState(false);

  // Read fresh on each visit; a page not yet confirmed by its own read (the previous page's rows while
  // the next loads) cannot be selected from.
  const { waiting, unconfirmed } = useVisitAnswer(archived);
  const rows = archived.data?.items ?? [];
  const total = archived.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ARCHIVE_PAGE_SIZE));
  const ids = [...selected.keys()];
  const allOnPage = rows.length > 0 && rows.every((a) => selected.has(a.id));
  // A restore or delete that empties the last page moves back to the new last page.
  const loaded = archived.isSuccess;
  useEffect(() => {
    if (loaded && page > pages) setPage(pages);
  }, [loaded, page, pages]);

  function toggle(alert: ArchivedAlert) {
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(alert.id)) next.delete(alert.id);
      else next.set(alert.id, nameOf(alert));
      return next;
    });
  }

  function togglePage() {
    setSelected((prev) => {
      const next = new Map(prev);
      for (const a of rows) {
        if (allOnPage) next.delete(a.id);
        else next.set(a.id, nameOf(a));
      }
      return next;
    });
  }

  async function act(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      setSelected(new Map());
      toast({ tone: 'success', message: done });
    } catch (error) {
      toast({ tone: 'error', message: errorMessage(error, watchlistMessages.archiveFailed) });
    }
  }

  return (
    <>
      <PageHeader
        title="Archived"
        subtitle={`Booked and passed alerts move here after ${AUTO_ARCHIVE_DAYS} days without changes.`}
      />
      <Card withBorder>
        <Group justify="space-between" mb="sm" wrap="wrap">
          <Text size="sm" c="dimmed">{`${total} archived · ${ids.length} selected`}</Text>
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              disabled={ids.length === 0}
              loading={restore.isPending}
              onClick={() =>
                act(() => restore.mutateAsync({ registrationIds: ids }), `${plural(ids.length)} restored.`)
              }
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
        {waiting ? (
          <LoadingState label="Loading archived alerts…" />
        ) : archived.isError ? (
          <ErrorState
            message={errorMessage(archived.error, watchlistMessages.archiveLoadFailed)}
            onRetry={() => archived.refetch()}
          />
        ) : rows.length === 0 ? (
          <EmptyState message="Nothing archived yet." />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Select this page"
                      checked={allOnPage}
                      disabled={unconfirmed}
                      onChange={togglePage}
                    />
                  </Table.Th>
                  <Table.Th>Alert</Table.Th>
                  <Table.Th>Family</Table.Th>
                  <Table.Th>Status before</Table.Th>
                  <Table.Th>Archived</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((alert) => (
                  <Table.Tr key={alert.id}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${nameOf(alert)}`}
                        checked={selected.has(alert.id)}
                        disabled={unconfirmed}
                        onChange={() => toggle(alert)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{nameOf(alert)}</Text>
                      <Text size="xs" c="dimmed">
                        {alert.templateName}
                      </Text>
                    </Table.Td>
                    <Table.Td>{alert.partyName ?? '—'}</Table.Td>
                    <Table.Td miw={110}>
                      <AlertStatusBadge status={alert.previousStatus} />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {dayjs(alert.archivedAt).format('MMM D, YYYY')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" mt="sm">
          <Button size="xs" variant="default" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Prev
          </Button>
          <Text size="sm">{`Page ${Math.min(page, pages)} of ${pages}`}</Text>
          <Button size="xs" variant="default" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </Group>
      </Card>
      <ConfirmModal
        opened={confirming}
        title="Delete permanently"
        message={`${deleting([...selected.values()])} This cannot be undone.`}
        confirmLabel="Delete permanently"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void act(
            () => purge.mutateAsync({ registrationIds: ids }),
            `${plural(ids.length)} deleted permanently.`,
          );
        }}
      />
    </>
  );
}
