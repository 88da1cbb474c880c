import { Button, Group, MultiSelect, Stack, Table, Text } from '@mantine/core';
import { alertListMessages, type Watchlist, watchlistMessages } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { useVisitAnswer } from '@/api/visit-answer.ts';
import { useFeedback } from '@/components/feedback.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { AlertStatusBadge } from '@/components/status-badge.tsx';
import { alertDisplayTitle, alertWithParty } from '@/features/alerts/alert-text.ts';

/** The alert list filtered to one watchlist, with add, remove and archive. */
export function WatchlistAlerts({ watchlist }: { watchlist: Watchlist }) {
  const api = useApi();
  const { show: toast } = useFeedback({ as: 'toast' });
  const members = useQuery(api.watchlists.alerts(watchlist.id));
  const mine = useQuery(api.alerts.mine());
  const add = useMutation(api.watchlists.addAlerts());
  const remove = useMutation(api.watchlists.removeAlert());
  const archive = useMutation(api.archive.archive());
  const [picked, setPicked] = useState<string[]>([]);

  // Read fresh on each visit: a status changed since the last one may reorder the rows.
  const { waiting } = useVisitAnswer(members);
  const rows = members.data ?? [];

  const inList = new Set(watchlist.registrationIds);
  const choices = (mine.data ?? [])
    .filter((a) => !inList.has(a.id))
    .map((a) => ({ value: a.id, label: alertWithParty(a) }));

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toast({ tone: 'success', message: done });
    } catch (error) {
      toast({ tone: 'error', message: errorMessage(error, watchlistMessages.saveFailed) });
    }
  }

  return (
    <Stack gap="sm" mt="sm">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <MultiSelect
          style={{ flex: 1, minWidth: 200 }}
          label="Add alerts"
          placeholder={choices.length ? 'Choose your alerts' : 'All your alerts are in this watchlist'}
          data={choices}
          value={picked}
          onChange={setPicked}
          searchable
          disabled={choices.length === 0}
        />
        <Button
          size="sm"
          disabled={picked.length === 0}
          loading={add.isPending}
          onClick={() =>
            run(
              async () => {
                await add.mutateAsync({ id: watchlist.id, registrationIds: picked });
                setPicked([]);
              },
              `${picked.length} alert${picked.length === 1 ? '' : 's'} added to ${watchlist.name}.`,
            )
          }
        >
          Add
        </Button>
      </Group>
      {waiting ? (
        <LoadingState label="Loading alerts..." />
      ) : members.isError ? (
        <ErrorState
          message={errorMessage(members.error, alertListMessages.loadFailedFallback)}
          onRetry={() => members.refetch()}
        />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No alerts in this watchlist yet. Add some above.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Alert</Table.Th>
                <Table.Th>Family/Party</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((alert) => (
                <Table.Tr key={alert.id}>
                  <Table.Td>{alertDisplayTitle(alert)}</Table.Td>
                  <Table.Td>{alert.partyName ?? '—'}</Table.Td>
                  <Table.Td miw={110}>
                    <AlertStatusBadge status={alert.status} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        aria-label={`Archive ${alertDisplayTitle(alert)}`}
                        onClick={() =>
                          run(
                            () => archive.mutateAsync({ registrationIds: [alert.id] }),
                            `${alertDisplayTitle(alert)} archived.`,
                          )
                        }
                      >
                        Archive
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        aria-label={`Remove ${alertDisplayTitle(alert)} from ${watchlist.name}`}
                        onClick={() =>
                          run(
                            () => remove.mutateAsync({ id: watchlist.id, registrationId: alert.id }),
                            `${alertDisplayTitle(alert)} removed from ${watchlist.name}.`,
                          )
                        }
                      >
                        Remove
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
