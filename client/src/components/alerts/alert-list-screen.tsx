import type { SettableAlertStatus } from '@resort/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApi } from '../../api/api-context.tsx';
import type { AlertRecord } from '../../api/contracts.ts';
import { AlertList } from './alert-list.tsx';

/**
 * The alert list wired to the server: the user's own alerts, or every user's for admins. After a
 * status change or a removal both the list and the account summary are refreshed (SPEC.md §7).
 */
export function AlertListScreen({ scope }: { scope: 'mine' | 'all' }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const calls = scope === 'all' ? api.adminAlerts : api.alerts;
  const listOptions = scope === 'all' ? api.adminAlerts.all() : api.alerts.mine();
  const list = useQuery(listOptions);
  const { mutateAsync: setStatus } = useMutation(calls.setStatus());
  const { mutateAsync: remove } = useMutation(calls.remove());
  const listKey = listOptions.queryKey;
  const summaryKey = api.account.summary().queryKey;

  const refresh = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listKey }),
        queryClient.invalidateQueries({ queryKey: summaryKey }),
      ]),
    [queryClient, listKey, summaryKey],
  );

  const onSetStatus = useCallback(
    async (alert: AlertRecord, status: SettableAlertStatus) => {
      const updated = await setStatus({ id: alert.id, status });
      await refresh();
      return updated ?? undefined;
    },
    [setStatus, refresh],
  );
  const onRemove = useCallback(
    async (alert: AlertRecord) => {
      await remove({ id: alert.id });
      await refresh();
    },
    [remove, refresh],
  );

  return (
    <AlertList
      alerts={list.data}
      loading={list.isPending}
      error={list.error}
      showOwner={scope === 'all'}
      onSetStatus={onSetStatus}
      onRemove={onRemove}
    />
  );
}
