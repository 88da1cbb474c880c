import type { SettableAlertStatus } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useApi } from '@/api/api-context.tsx';
import type { AlertRecord } from '@/api/contracts.ts';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { AlertList } from './alert-list.tsx';
import { DeliveryHealth } from './delivery-health.tsx';

/**
 * /alerts and /admin/alerts: the list wired to the server, the user's own alerts (alerts.*) or
 * every user's for admins (adminAlerts.*, with the delivery figures above). Each change resolves
 * once the list and the counts that show it are fresh (api/invalidation.ts).
 */
export function AlertListScreen({ scope }: { scope: 'mine' | 'all' }) {
  const api = useApi();
  const admin = scope === 'all';
  const mine = useQuery({ ...api.alerts.mine(), enabled: !admin });
  const all = useQuery({ ...api.adminAlerts.all(), enabled: admin });
  const list = admin ? all : mine;
  const setOwn = useMutation(api.alerts.setStatus()).mutateAsync;
  const setAny = useMutation(api.adminAlerts.setStatus()).mutateAsync;
  const removeOwn = useMutation(api.alerts.remove()).mutateAsync;
  const removeAny = useMutation(api.adminAlerts.remove()).mutateAsync;
  const archive = useMutation(api.archive.archive()).mutateAsync;

  const onSetStatus = useCallback(
    (alert: AlertRecord, status: SettableAlertStatus) => (admin ? setAny : setOwn)({ id: alert.id, status }),
    [admin, setAny, setOwn],
  );
  const onRemove = useCallback(
    async (alert: AlertRecord) => {
      await (admin ? removeAny : removeOwn)({ id: alert.id });
    },
    [admin, removeAny, removeOwn],
  );
  // The archive is the planner's own (archive.*): offered on /alerts, not on the admin list.
  const onArchive = useCallback(
    async (alert: AlertRecord) => {
      await archive({ registrationIds: [alert.id] });
    },
    [archive],
  );

  return (
    <>
      {admin ? (
        <PageHeader title="Alerts (Admin)" subtitle="Every user's alerts, with their owners." />
      ) : (
        <PageHeader title="Alerts" subtitle="Every alert you watch, its dates and its status." />
      )}
      <NavigationFeedback />
      {admin ? <DeliveryHealth /> : null}
      <AlertList
        alerts={list.data}
        loading={list.isPending}
        error={list.error}
        showOwner={admin}
        onSetStatus={onSetStatus}
        onRemove={onRemove}
        onArchive={admin ? undefined : onArchive}
      />
    </>
  );
}
