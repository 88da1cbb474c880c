import { Grid, Text } from '@mantine/core';
import { type DashboardSummary, watchlistMessages } from '@resort/shared';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { ErrorState } from '@/components/states.tsx';
import { type StatCard, StatCards } from './stat-cards.tsx';
import { StatusBreakdown } from './status-breakdown.tsx';
import { WatchlistSpotlight } from './watchlist-spotlight.tsx';

/** The five stat cards, from the server's summary; null values while loading. */
export function summaryCards(summary: { data: DashboardSummary | undefined; isError: boolean }): StatCard[] {
  const s = summary.data;
  const value = (pick: (d: DashboardSummary) => number) =>
    s ? pick(s) : summary.isError ? 'Unavailable' : null;
  return [
    { label: 'Active alerts', value: value((d) => d.activeAlerts) },
    { label: 'With availability', value: value((d) => d.availableAlerts) },
    { label: 'Triggered in 24 h', value: value((d) => d.triggeredLast24h) },
    { label: 'Watchlists tracked', value: value((d) => d.watchlists) },
    {
      label: 'Archived alerts',
      value: value((d) => d.archived),
      ...(s ? { hint: `${s.readyForAutoArchive} ready for auto-archive` } : {}),
    },
  ];
}

function Quiet({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** Stat cards, status breakdown and watchlist spotlight: the part of Home and Dashboard on real data. */
export function SummaryPanels() {
  const api = useApi();
  const summary = useQuery(api.dashboard.summary());
  const fallback = summary.isPending ? (
    <Quiet>Loading alerts...</Quiet>
  ) : summary.isError ? (
    <Quiet>Unavailable.</Quiet>
  ) : undefined;
  const noAlerts = summary.data?.statusBreakdown.length === 0;

  return (
    <>
      {summary.isError ? (
        <ErrorState
          message={errorMessage(summary.error, watchlistMessages.summaryLoadFailed)}
          onRetry={() => summary.refetch()}
        />
      ) : null}
      <StatCards cards={summaryCards(summary)} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <StatusBreakdown
            rows={summary.data?.statusBreakdown ?? []}
            fallback={
              fallback ??
              (noAlerts ? <Quiet>No alerts yet. Create one to see its status here.</Quiet> : undefined)
            }
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <WatchlistSpotlight items={summary.data?.spotlight ?? []} fallback={fallback} />
        </Grid.Col>
      </Grid>
    </>
  );
}
