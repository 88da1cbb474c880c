import { Badge, Button, Card, Collapse, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header.tsx';
import { EmptyState } from '../../../components/states.tsx';
import { type Watchlist, watchlistStats } from '../../../sample/sample-data.ts';
import { useSampleState, useSampleStore } from '../../../sample/sample-store.ts';
import { ConfirmModal } from './confirm-modal.tsx';
import { SampleAlertTable } from './sample-alert-table.tsx';
import { SampleNotice } from './sample-notice.tsx';
import { toast } from './toast.ts';
import { emptyWatchlist, type WatchlistDraft, WatchlistFormModal } from './watchlist-form-modal.tsx';

/** Watchlists (local sample data): create, edit, delete and view the alerts of each. */
export function WatchlistsView() {
  const { watchlists, alerts } = useSampleState();
  const store = useSampleStore();
  const [draft, setDraft] = useState<WatchlistDraft | null>(null);
  const [deleting, setDeleting] = useState<Watchlist | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  return (
    <>
      <PageHeader
        title="Watchlists"
        subtitle="Group the alerts of one trip and see what is open at a glance."
        actions={<Button onClick={() => setDraft({ ...emptyWatchlist })}>Create watchlist</Button>}
      />
      <SampleNotice />
      {watchlists.length === 0 ? (
        <EmptyState message="No watchlists yet. Create one to group your alerts." />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {watchlists.map((watchlist) => {
            const stats = watchlistStats(watchlist, alerts);
            const mine = alerts.filter((a) => a.watchlistName === watchlist.name);
            return (
              <Card withBorder key={watchlist.id}>
                <Group justify="space-between" align="flex-start">
                  <Stack gap={2}>
                    <Text fw={600}>{watchlist.name}</Text>
                    <Text size="sm" c="dimmed">
                      {`${watchlist.resort || 'Any resort'} · ${watchlist.quarter}`}
                    </Text>
                  </Stack>
                  <Group gap={4}>
                    <Badge variant="light">{`${stats.alerts} alerts`}</Badge>
                    <Badge variant="light" color="green">{`${stats.available} available`}</Badge>
                  </Group>
                </Group>
                {watchlist.notes ? (
                  <Text size="sm" mt="xs">
                    {watchlist.notes}
                  </Text>
                ) : null}
                <Group gap="xs" mt="md">
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => setOpen(open === watchlist.id ? null : watchlist.id)}
                  >
                    {open === watchlist.id ? 'Hide alerts' : 'View alerts'}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setDraft(watchlist)}>
                    Edit
                  </Button>
                  <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(watchlist)}>
                    Delete
                  </Button>
                </Group>
                <Collapse expanded={open === watchlist.id}>
                  {mine.length === 0 ? (
                    <Text size="sm" c="dimmed" mt="sm">
                      No alerts in this watchlist.
                    </Text>
                  ) : (
                    <SampleAlertTable alerts={mine} />
                  )}
                </Collapse>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
      <WatchlistFormModal
        draft={draft}
        onClose={() => setDraft(null)}
        onSave={(values) => {
          const saved = store.saveWatchlist(values);
          setDraft(null);
          toast(values.id ? `Watchlist ${saved.name} updated.` : `Watchlist ${saved.name} created.`);
        }}
      />
      <ConfirmModal
        opened={deleting !== null}
        title="Delete watchlist"
        message={`Delete watchlist "${deleting?.name ?? ''}"? Its alerts stay on the board.`}
        confirmLabel="Delete watchlist"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) {
            store.deleteWatchlist(deleting.id);
            toast(`Watchlist ${deleting.name} deleted.`);
          }
          setDeleting(null);
        }}
      />
    </>
  );
}
