import { Group, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { alertListMessages, alertStatusLabel, type SettableAlertStatus } from '@resort/shared';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { AlertRecord } from '@/api/contracts.ts';
import { errorMessage } from '@/api/http.ts';
import { FeedbackBanner, useFeedback } from '@/components/feedback.tsx';
import { ButtonLink } from '@/components/links.tsx';
import { EmptyState, ErrorState, LoadingState } from '@/components/states.tsx';
import { alertDisplayTitle } from '@/features/alerts/alert-text.ts';
import { AlertCards } from './alert-cards.tsx';
import {
  ALL_STATUSES,
  filterByStatus,
  indexAlerts,
  matchSearch,
  statusChipOptions,
} from './alert-filters.ts';
import { type AlertRowHandlers, AlertTable } from './alert-table.tsx';
import { RemoveAlertModal } from './remove-alert-modal.tsx';
import { StatusChips } from './status-chips.tsx';

export const ALERT_PAGE_SIZE = 50;

export interface AlertListProps {
  alerts: readonly AlertRecord[] | undefined;
  loading: boolean;
  error: unknown;
  /** The admin list shows each alert's owner. */
  showOwner?: boolean;
  onSetStatus: (alert: AlertRecord, status: SettableAlertStatus) => Promise<{ status: string } | undefined>;
  onRemove: (alert: AlertRecord) => Promise<void>;
  /** The planner's own list: archive an alert from its row menu. */
  onArchive?: (alert: AlertRecord) => Promise<void>;
}

function loadFailedText(error: unknown): string {
  const message = errorMessage(error, '');
  return message ? alertListMessages.loadFailed(message) : alertListMessages.loadFailedFallback;
}

/**
 * Search, status chips and the paged table. Searching and counting run over every alert in memory
 * (a precomputed lower-case index); only one page of rows is rendered, so ten thousand alerts stay
 * responsive.
 */
export function AlertList({
  alerts,
  loading,
  error,
  showOwner = false,
  onSetStatus,
  onRemove,
  onArchive,
}: AlertListProps) {
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [status, setStatus] = useState<string>(ALL_STATUSES);
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const { feedback: flash, show: showFlash, clear: clearFlash } = useFeedback();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [removing, setRemoving] = useState<AlertRecord | null>(null);
  const [removePending, setRemovePending] = useState(false);
  // Below 640 px the table becomes cards.
  const phone = useMediaQuery('(max-width: 40em)') ?? false;

  const indexed = useMemo(() => indexAlerts(alerts ?? []), [alerts]);
  const matching = useMemo(() => matchSearch(indexed, deferredSearch), [indexed, deferredSearch]);
  const chips = useMemo(() => statusChipOptions(indexed, matching), [indexed, matching]);
  const statusPresent = chips.some((chip) => chip.value === status);
  const activeStatus = statusPresent ? status : ALL_STATUSES;
  const visible = useMemo(() => filterByStatus(matching, activeStatus), [matching, activeStatus]);

  // The chosen status disappeared (its last alert changed or went away): back to All.
  useEffect(() => {
    if (!statusPresent) setStatus(ALL_STATUSES);
  }, [statusPresent]);
  // A new search or status starts again at the first page.
  const pagingKey = `${activeStatus}\u0000${deferredSearch}`;
  const page = paging.key === pagingKey ? paging.page : 1;
  const setPage = (next: number) => setPaging({ key: pagingKey, page: next });

  const pages = Math.max(1, Math.ceil(visible.length / ALERT_PAGE_SIZE));
  const currentPage = Math.min(page, pages);
  const pageRows = useMemo(
    () =>
      visible.slice((currentPage - 1) * ALERT_PAGE_SIZE, currentPage * ALERT_PAGE_SIZE).map((r) => r.alert),
    [visible, currentPage],
  );

  const handlers: AlertRowHandlers = useMemo(() => {
    /** One row action: the row shows busy, then a flash with the outcome (the error names the alert). */
    const rowAction = async (alert: AlertRecord, run: () => Promise<string>, failed: string) => {
      setBusyId(alert.id);
      try {
        showFlash({ tone: 'success', message: await run() });
      } catch (err) {
        showFlash({ tone: 'error', message: `${errorMessage(err, failed)} (${alertDisplayTitle(alert)})` });
      } finally {
        setBusyId(null);
      }
    };
    return {
      onSetStatus: (alert, next) =>
        rowAction(
          alert,
          async () => {
            const updated = await onSetStatus(alert, next);
            const label = alertStatusLabel(updated?.status ?? next);
            return alertListMessages.statusChanged(alertDisplayTitle(alert), label);
          },
          alertListMessages.statusFailed,
        ),
      onRemove: (alert) => setRemoving(alert),
      ...(onArchive
        ? {
            onArchive: (alert: AlertRecord) =>
              rowAction(
                alert,
                async () => {
                  await onArchive(alert);
                  return alertListMessages.archived(alertDisplayTitle(alert));
                },
                alertListMessages.archiveFailed,
              ),
          }
        : {}),
    };
  }, [onSetStatus, onArchive, showFlash]);

  async function confirmRemove(alert: AlertRecord) {
    setRemovePending(true);
    try {
      await onRemove(alert);
      showFlash({ tone: 'success', message: alertListMessages.removed(alert.id) });
    } catch (err) {
      showFlash({ tone: 'error', message: errorMessage(err, alertListMessages.removeFailed) });
    } finally {
      setRemovePending(false);
      setRemoving(null);
    }
  }

  function body() {
    if (loading) return <LoadingState label={alertListMessages.loading} />;
    if (error) return <ErrorState message={loadFailedText(error)} />;
    if (indexed.length === 0) return <EmptyState message={alertListMessages.empty} />;
    if (visible.length === 0) return <EmptyState message={alertListMessages.noMatches} />;
    const first = (currentPage - 1) * ALERT_PAGE_SIZE + 1;
    return (
      <>
        {phone ? (
          <AlertCards alerts={pageRows} showOwner={showOwner} busyId={busyId} handlers={handlers} />
        ) : (
          <AlertTable alerts={pageRows} showOwner={showOwner} busyId={busyId} handlers={handlers} />
        )}
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed" data-testid="alert-count">
            {`Showing ${first}–${first + pageRows.length - 1} of ${visible.length}`}
          </Text>
          {pages > 1 ? <Pagination total={pages} value={currentPage} onChange={setPage} size="sm" /> : null}
        </Group>
      </>
    );
  }

  return (
    <Stack gap="md">
      <FeedbackBanner feedback={flash} onClose={clearFlash} />
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <TextInput
          aria-label="Search alerts"
          placeholder={alertListMessages.searchPlaceholder}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', sm: 420 }}
        />
        <ButtonLink to="/configure/alerts">Create alert</ButtonLink>
      </Group>
      {!loading && !error && indexed.length > 0 ? (
        <StatusChips options={chips} value={activeStatus} onChange={setStatus} />
      ) : null}
      {body()}
      <RemoveAlertModal
        alert={removing}
        removing={removePending}
        onCancel={() => setRemoving(null)}
        onConfirm={confirmRemove}
      />
    </Stack>
  );
}
