import type { SettableAlertStatus } from '@resort/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApi } from '@/api/api-context.tsx';
import type { AlertRecord } from '@/api/contracts.ts';
import { useRefreshAlerts } from '@/api/use-refresh-alerts.ts';
import { AlertList } from './alert-list.tsx';

/**
 * The alert list wired to the server: the user's own alerts (registrations.*), or every user's for
 * admins (adminRegistrations.*). After a status change or a removal both the list and the account
 * summary are refreshed (SPEC.md §7).
 */
export function AlertListScreen({ scope }: { scope: 'mine' | 'all' }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const admin = scope === 'all';
  const mine = useQuery({ ...api.alerts.mine(), enabled: !admin });
  const all = useQuery({ ...api.adminAlerts.all(), enabled: admin });
  const list = admin ? all : mine;
  const setOwn = useMutation(api.alerts.setStatus()).mutateAsync;
  const setAny = useMutation(api.adminAlerts.setStatus()).mutateAsync;
  const removeOwn = useMutation(api.alerts.remove()).mutateAsync;
  const removeAny = useMutation(api.adminAlerts.remove()).mutateAsync;
  const archive = useMutation(api.archive.archive()).mutateAsync;
  const refreshAll = useRefreshAlerts();
  const listKey = admin ? api.adminAlerts.all().queryKey : api.alerts.mine().queryKey;
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
      const updated = await (admin ? setAny : setOwn)({ id: alert.id, status });
      await refresh();
      return updated;
    },
    [admin, setAny, setOwn, refresh],
  );
  const onRemove = useCallback(
    async (alert: AlertRecord) => {
      await (admin ? removeAny : removeOwn)({ id: alert.id });
      await refresh();
    },
    [admin, removeAny, removeOwn, refresh],
  );
  // The archive is the planner's own (archive.*): offered on /alerts, not on the admin list.
  const onArchive = useCallback(
    async (alert: AlertRecord) => {
      await archive({ registrationIds: [alert.id] });
      await refreshAll();
    },
    [archive, refreshAll],
  );

  return (
    <AlertList
      alerts={list.data}
      loading={list.isPending}
      error={list.error}
      showOwner={admin}
      onSetStatus={onSetStatus}
      onRemove={onRemove}
      onArchive={admin ? undefined : onArchive}
    />
  );
}
