import { Grid, Stack, Text } from '@mantine/core';
import { authMessages } from '@resort/shared';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../../api/api-context.tsx';
import { errorMessage } from '../../../../api/http.ts';
import { PageHeader } from '../../../../components/page-header.tsx';
import { ErrorState } from '../../../../components/states.tsx';
import { spotlight } from '../../../../sample/sample-data.ts';
import { useSampleState } from '../../../../sample/sample-store.ts';
import { useSession } from '../../../../session/use-session.ts';
import { alertStats, statusBreakdown } from './dashboard-stats.ts';
import { RecentNotifications } from './recent-notifications.tsx';
import { type StatCard, StatCards } from './stat-cards.tsx';
import { StatusBreakdown } from './status-breakdown.tsx';
import { WatchlistSpotlight } from './watchlist-spotlight.tsx';
import { WelcomePanel } from './welcome-panel.tsx';

/**
 * The dashboard: alert counts and the status breakdown come from the server (the account summary);
 * watchlists and archived counts come from the local sample data, as SPEC.md marks them.
 */
export function DashboardView() {
  const api = useApi();
  const session = useSession();
  const summary = useQuery(api.account.summary());
  const sample = useSampleState();
  const alerts = summary.data?.registrations ?? [];
  const stats = alertStats(alerts, Date.now());
  const unavailable = summary.isError ? 'Unavailable' : null;
  const server = (value: number) => (summary.isSuccess ? value : unavailable);
  const readyToArchive = sample.alerts.filter((a) => a.status === 'booked' || a.status === 'passed').length;

  const cards: StatCard[] = [
    { label: 'Active alerts', value: server(stats.active) },
    { label: 'With availability', value: server(stats.available) },
    { label: 'Triggered in 24 h', value: server(stats.triggered) },
    { label: 'Watchlists tracked', value: sample.watchlists.length, hint: 'Sample data' },
    {
      label: 'Archived alerts',
      value: sample.archived.length,
      hint: `${readyToArchive} ready for auto-archive`,
    },
  ];

  return (
    <Stack gap="lg">
      <PageHeader title="Dashboard" />
      <WelcomePanel name={session?.user.name || session?.user.email || 'traveller'} />
      {summary.isError ? (
        <ErrorState
          message={errorMessage(summary.error, authMessages.loadAccountFailed)}
          onRetry={() => summary.refetch()}
        />
      ) : null}
      <StatCards cards={cards} />
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <StatusBreakdown
            rows={statusBreakdown(alerts)}
            fallback={
              summary.isPending ? (
                <Text size="sm" c="dimmed">
                  Loading alerts...
                </Text>
              ) : summary.isError ? (
                <Text size="sm" c="dimmed">
                  Unavailable.
                </Text>
              ) : alerts.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No alerts yet. Create one to see its status here.
                </Text>
              ) : undefined
            }
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <WatchlistSpotlight items={spotlight(sample.watchlists, sample.alerts)} />
        </Grid.Col>
      </Grid>
      <RecentNotifications />
    </Stack>
  );
}
