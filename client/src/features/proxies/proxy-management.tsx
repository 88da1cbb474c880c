import { Card, SimpleGrid, Stack, Title } from '@mantine/core';
import { type CreateProxy, proxyMessages, type WebProxy } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { ConfirmModal } from '@/components/confirm-modal.tsx';
import { FeedbackBanner, useFeedback } from '@/components/feedback.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { ProxyEditModal } from './proxy-edit-modal.tsx';
import { ProxyForm } from './proxy-form.tsx';
import { ProxyImportCard } from './proxy-import-card.tsx';
import { ProxyInventory, type ProxyInventoryHandlers } from './proxy-inventory.tsx';
import { proxyAddress } from './proxy-row.tsx';

const done = {
  created: (address: string) => `Proxy ${address} registered.`,
  updated: (address: string) => `Proxy ${address} updated.`,
  deleted: (count: number) => (count === 1 ? 'Proxy deleted.' : `${count} proxies deleted.`),
  reset: (address: string) => `Failures of ${address} reset.`,
  status: (isActive: boolean, count: number) =>
    `${count} ${count === 1 ? 'proxy' : 'proxies'} ${isActive ? 'enabled' : 'disabled'}.`,
};

export function bulkConfirmMessage(isActive: boolean, count: number): string {
  return isActive
    ? `Enable all ${count} proxies? The polling worker will route requests through every one of them.`
    : `Disable all ${count} proxies? The polling worker will then poll directly, without a proxy.`;
}

/** Web Proxy Management (/admin/proxies): import, register, and the inventory with its actions. */
export function ProxyManagementScreen() {
  const api = useApi();
  const listOptions = api.proxies.list();
  const list = useQuery(listOptions);
  const { mutateAsync: create } = useMutation(api.proxies.create());
  const { mutateAsync: update } = useMutation(api.proxies.update());
  const { mutateAsync: remove } = useMutation(api.proxies.remove());
  const { mutateAsync: resetFailures } = useMutation(api.proxies.resetFailures());
  const { mutateAsync: bulkStatus, isPending: bulkBusy } = useMutation(api.proxies.bulkStatus());
  const { mutateAsync: importList } = useMutation(api.proxies.import());

  const { feedback: bannerFeedback, show: showBanner, clear: clearBanner } = useFeedback();
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<WebProxy | null>(null);
  const [deleting, setDeleting] = useState<WebProxy[] | null>(null);
  /** A bulk status change over every proxy waits for a confirmation (it can stop all polling). */
  const [bulkAll, setBulkAll] = useState<boolean | null>(null);

  /** Runs one action, marking the proxies busy and reporting the outcome in the banner. */
  const act = useCallback(
    async (ids: string[], fallback: string, action: () => Promise<string>) => {
      setBusyIds((prev) => new Set([...prev, ...ids]));
      try {
        const message = await action();
        showBanner({ tone: 'success', message });
      } catch (error) {
        showBanner({ tone: 'error', message: errorMessage(error, fallback) });
      } finally {
        setBusyIds((prev) => new Set([...prev].filter((id) => !ids.includes(id))));
      }
    },
    [showBanner],
  );

  const handlers = useMemo<ProxyInventoryHandlers>(
    () => ({
      onToggle: (proxy, isActive) =>
        void act([proxy.id], proxyMessages.statusFailed, async () => {
          await update({ id: proxy.id, isActive });
          return done.status(isActive, 1);
        }),
      onEdit: setEditing,
      onResetFailures: (proxy) =>
        void act([proxy.id], proxyMessages.resetFailed, async () => {
          await resetFailures({ id: proxy.id });
          return done.reset(proxyAddress(proxy));
        }),
      onDelete: (proxy) => setDeleting([proxy]),
      onDeleteSelected: setDeleting,
      onBulkStatus: (isActive, ids) => {
        if (!ids) {
          setBulkAll(isActive);
          return;
        }
        void act(ids, proxyMessages.statusFailed, async () => {
          const answer = await bulkStatus({ isActive, ids });
          return done.status(isActive, answer.updated);
        });
      },
      onNothingSelected: (message) => showBanner({ tone: 'error', message }),
    }),
    [act, update, resetFailures, bulkStatus, showBanner],
  );

  async function register(values: CreateProxy): Promise<boolean> {
    try {
      const proxy = await create(values);
      showBanner({ tone: 'success', message: done.created(proxyAddress(proxy)) });
      return true;
    } catch (error) {
      showBanner({ tone: 'error', message: errorMessage(error, proxyMessages.createFailed) });
      return false;
    }
  }

  function confirmBulkAll(isActive: boolean) {
    setBulkAll(null);
    void act([], proxyMessages.statusFailed, async () => {
      const answer = await bulkStatus({ isActive });
      return done.status(isActive, answer.updated);
    });
  }

  async function confirmDelete(proxies: WebProxy[]) {
    setDeleting(null);
    const ids = proxies.map((p) => p.id);
    await act(ids, proxyMessages.deleteFailed, async () => {
      for (const id of ids) await remove({ id });
      return done.deleted(ids.length);
    });
  }

  return (
    <>
      <PageHeader
        title="Web Proxy Management"
        subtitle="The proxies the polling worker rotates through, their health and their last attempts."
      />
      <Stack gap="lg">
        <FeedbackBanner feedback={bannerFeedback} onClose={clearBanner} />
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Card withBorder padding="lg">
            <Title order={4} mb="sm">
              Import proxies
            </Title>
            <ProxyImportCard onImport={importList} />
          </Card>
          <Card withBorder padding="lg">
            <Title order={4} mb="sm">
              Register a proxy
            </Title>
            <ProxyForm submitLabel="Register proxy" onSubmit={register} />
          </Card>
        </SimpleGrid>
        <Card withBorder padding="lg">
          <Title order={4} mb="sm">
            Inventory
          </Title>
          <ProxyInventory
            proxies={list.data}
            loading={list.isPending}
            error={list.error ? errorMessage(list.error, proxyMessages.loadFailed) : null}
            busyIds={busyIds}
            bulkBusy={bulkBusy}
            onRetry={() => void list.refetch()}
            handlers={handlers}
          />
        </Card>
        <ProxyEditModal
          proxy={editing}
          onClose={() => setEditing(null)}
          onSave={async (proxy, values) => {
            const saved = await update({ id: proxy.id, ...values });
            showBanner({ tone: 'success', message: done.updated(proxyAddress(saved)) });
          }}
        />
        <ConfirmModal
          opened={deleting !== null}
          title="Delete proxy"
          message={
            deleting && deleting.length === 1
              ? `Delete ${proxyAddress(deleting[0]!)}? This cannot be undone.`
              : `Delete ${deleting?.length ?? 0} selected proxies? This cannot be undone.`
          }
          confirmLabel="Delete"
          onCancel={() => setDeleting(null)}
          onConfirm={() => deleting && void confirmDelete(deleting)}
        />
        <ConfirmModal
          opened={bulkAll !== null}
          title={bulkAll ? 'Enable all proxies' : 'Disable all proxies'}
          message={bulkConfirmMessage(bulkAll ?? false, list.data?.length ?? 0)}
          confirmLabel={bulkAll ? 'Enable all' : 'Disable all'}
          destructive={!bulkAll}
          onCancel={() => setBulkAll(null)}
          onConfirm={() => bulkAll !== null && confirmBulkAll(bulkAll)}
        />
      </Stack>
    </>
  );
}
