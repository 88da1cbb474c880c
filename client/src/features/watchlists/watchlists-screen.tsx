import { Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { type Watchlist, watchlistMessages } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { ConfirmModal } from '@/components/confirm-modal.tsx';
import { useFeedback } from '@/components/feedback.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '@/components/states.tsx';
import { WatchlistAlerts } from './watchlist-alerts.tsx';
import { WatchlistFormModal } from './watchlist-form-modal.tsx';

function WatchlistCard({
  watchlist,
  open,
  onToggle,
  onEdit,
  onDelete,
}: {
  watchlist: Watchlist;
  open: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { stats } = watchlist;
  return (
    <Card withBorder>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Text fw={600}>{watchlist.name}</Text>
          <Text size="sm" c="dimmed">
            {[watchlist.resortCode ?? 'Any resort', watchlist.quarter].filter(Boolean).join(' · ')}
          </Text>
        </Stack>
        <Group gap={4}>
          <Badge variant="light">{`${stats.alertCount} alert${stats.alertCount === 1 ? '' : 's'}`}</Badge>
          <Badge variant="light" color="green">{`${stats.availableCount} available`}</Badge>
        </Group>
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        {stats.lastNotifiedAt
          ? `Last notification ${dayjs(stats.lastNotifiedAt).format('MMM D, YYYY h:mm A')}`
          : 'No notifications yet'}
      </Text>
      {watchlist.notes ? (
        <Text size="sm" mt="xs">
          {watchlist.notes}
        </Text>
      ) : null}
      <Group gap="xs" mt="md">
        <Button size="xs" variant="light" onClick={onToggle} aria-expanded={open}>
          {open ? 'Hide alerts' : 'View alerts'}
        </Button>
        <Button size="xs" variant="default" onClick={onEdit}>
          Edit
        </Button>
        <Button size="xs" variant="subtle" color="red" onClick={onDelete}>
          Delete
        </Button>
      </Group>
      {/* Shown in place, not slid open: a sliding table moves its rows under the pointer. */}
      {open ? <WatchlistAlerts watchlist={watchlist} /> : null}
    </Card>
  );
}

/** Watchlists (server data): create, edit, delete, and view, add or remove the alerts of each. */
export function WatchlistsScreen() {
  const api = useApi();
  const { show: toast } = useFeedback({ as: 'toast' });
  const watchlists = useQuery(api.watchlists.list());
  const remove = useMutation(api.watchlists.remove());
  const [form, setForm] = useState<{ editing: Watchlist | null } | null>(null);
  const [deleting, setDeleting] = useState<Watchlist | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  return (
    <>
      <PageHeader
        title="Watchlists"
        subtitle="Group the alerts of one trip and see what is open at a glance."
        actions={<Button onClick={() => setForm({ editing: null })}>Create watchlist</Button>}
      />
      {watchlists.isPending ? (
        <LoadingState label="Loading watchlists…" />
      ) : watchlists.isError ? (
        <ErrorState
          message={errorMessage(watchlists.error, watchlistMessages.loadFailed)}
          onRetry={() => watchlists.refetch()}
        />
      ) : watchlists.data.length === 0 ? (
        <EmptyState message="No watchlists yet. Create one to group your alerts." />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {watchlists.data.map((watchlist) => (
            <WatchlistCard
              key={watchlist.id}
              watchlist={watchlist}
              open={open === watchlist.id}
              onToggle={() => setOpen(open === watchlist.id ? null : watchlist.id)}
              onEdit={() => setForm({ editing: watchlist })}
              onDelete={() => setDeleting(watchlist)}
            />
          ))}
        </SimpleGrid>
      )}
      <WatchlistFormModal
        opened={form !== null}
        editing={form?.editing ?? null}
        onClose={() => setForm(null)}
        onSaved={async (saved, created) => {
          setForm(null);
          if (created) setOpen(saved.id);
          toast({
            tone: 'success',
            message: created ? `Watchlist ${saved.name} created.` : `Watchlist ${saved.name} updated.`,
          });
        }}
      />
      <ConfirmModal
        opened={deleting !== null}
        title="Delete watchlist"
        message={`Delete watchlist "${deleting?.name ?? ''}"? Its alerts stay in your alert list.`}
        confirmLabel="Delete watchlist"
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          const target = deleting;
          setDeleting(null);
          if (!target) return;
          try {
            await remove.mutateAsync({ id: target.id });
            toast({ tone: 'success', message: `Watchlist ${target.name} deleted.` });
          } catch (error) {
            toast({ tone: 'error', message: errorMessage(error, watchlistMessages.deleteFailed) });
          }
        }}
      />
    </>
  );
}
