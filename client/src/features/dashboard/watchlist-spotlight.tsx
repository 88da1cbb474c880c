import { Card, Group, Stack, Text } from '@mantine/core';
import type { DashboardSummary } from '@resort/shared';
import type { ReactNode } from 'react';
import { TextLink } from '@/components/links.tsx';

/** The top watchlists by available count, then alert count (computed on the server). */
export function WatchlistSpotlight({
  items,
  fallback,
}: {
  items: DashboardSummary['spotlight'];
  fallback?: ReactNode;
}) {
  return (
    <Card withBorder h="100%" role="region" aria-label="Watchlist spotlight">
      <Text fw={600} mb="sm">
        Watchlist spotlight
      </Text>
      {fallback ??
        (items.length === 0 ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm" c="dimmed">
              No watchlists yet. Group the alerts of a trip to see them here.
            </Text>
            <TextLink to="/" search={{ view: 'watchlists' }} size="sm">
              Create a watchlist
            </TextLink>
          </Stack>
        ) : (
          <Stack gap="sm">
            {items.map((watchlist) => (
              <Group key={watchlist.id} justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} truncate>
                    {watchlist.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {watchlist.resortCode ?? 'Any resort'}
                  </Text>
                </Stack>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {`${watchlist.stats.availableCount} available · ${watchlist.stats.alertCount} alerts`}
                </Text>
              </Group>
            ))}
            <TextLink to="/" search={{ view: 'watchlists' }} size="sm">
              All watchlists
            </TextLink>
          </Stack>
        ))}
    </Card>
  );
}
