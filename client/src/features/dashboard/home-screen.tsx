import { Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { alertListMessages, watchlistMessages } from '@resort/shared';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useApi } from '@/api/api-context.tsx';
import type { AlertRecord } from '@/api/contracts.ts';
import { errorMessage } from '@/api/http.ts';
import { ButtonLink } from '@/components/links.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { AlertStatusBadge } from '@/components/status-badge.tsx';
import { alertWithParty } from '@/features/alerts/alert-text.ts';
import { StatCards } from './stat-cards.tsx';
import { summaryCards } from './summary-panels.tsx';

function TripCard({ title, subtitle, alerts }: { title: string; subtitle: string; alerts: AlertRecord[] }) {
  const available = alerts.filter((a) => a.status === 'FIRING').length;
  return (
    <Card withBorder>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {title}
          </Text>
          <Text size="xs" c="dimmed">
            {subtitle}
          </Text>
        </Stack>
        <Badge variant="light" color={available ? 'green' : 'gray'} style={{ flexShrink: 0 }}>
          {`${available} available`}
        </Badge>
      </Group>
      <Stack gap={6} mt="sm">
        {alerts.length === 0 ? (
          <Text size="sm" c="dimmed">
            No alerts in this watchlist yet.
          </Text>
        ) : (
          alerts.map((alert) => (
            <Group key={alert.id} justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" truncate>
                {alertWithParty(alert)}
              </Text>
              <div style={{ flexShrink: 0 }}>
                <AlertStatusBadge status={alert.status} />
              </div>
            </Group>
          ))
        )}
      </Stack>
    </Card>
  );
}

/** Home: the planner's own alerts, as a board of their watchlists; a new planner is led to create an alert. */
export function HomeScreen() {
  const api = useApi();
  const summary = useQuery(api.dashboard.summary());
  const alerts = useQuery(api.alerts.mine());
  const watchlists = useQuery(api.watchlists.list());
  const failed = alerts.error ?? watchlists.error;

  let board: ReactNode;
  if (failed) {
    board = (
      <ErrorState
        message={errorMessage(failed, watchlistMessages.loadFailed)}
        onRetry={() => {
          void alerts.refetch();
          void watchlists.refetch();
        }}
      />
    );
  } else if (!alerts.data || !watchlists.data) {
    board = <LoadingState label={alertListMessages.loading} />;
  } else if (alerts.data.length === 0) {
    board = (
      <Card withBorder p="xl">
        <Stack align="center" gap="sm">
          <Text fw={600}>No alerts yet</Text>
          <Text c="dimmed" ta="center">
            Create an alert for a resort or a party and we will watch its availability for you.
          </Text>
          <ButtonLink to="/configure/alerts">Create alert</ButtonLink>
        </Stack>
      </Card>
    );
  } else {
    const byId = new Map(alerts.data.map((a) => [a.id, a]));
    const grouped = new Set(watchlists.data.flatMap((w) => w.registrationIds));
    const loose = alerts.data.filter((a) => !grouped.has(a.id));
    board = (
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
        {watchlists.data.map((w) => (
          <TripCard
            key={w.id}
            title={w.name}
            subtitle={[w.resortCode ?? 'Any resort', w.quarter].filter(Boolean).join(' · ')}
            alerts={w.registrationIds.flatMap((id) => byId.get(id) ?? [])}
          />
        ))}
        {loose.length > 0 ? (
          <TripCard
            title="Not in a watchlist"
            subtitle="Add them to a watchlist to group a trip"
            alerts={loose}
          />
        ) : null}
      </SimpleGrid>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader
        title="Home"
        subtitle="Your trip board: the resorts and parties you are watching, grouped by watchlist."
        actions={
          <Group gap="xs">
            <ButtonLink to="/" search={{ view: 'watchlists' }} variant="light">
              Watchlists
            </ButtonLink>
            <ButtonLink to="/alerts" variant="default">
              Your alerts
            </ButtonLink>
          </Group>
        }
      />
      <StatCards cards={summaryCards(summary)} />
      {board}
    </Stack>
  );
}
