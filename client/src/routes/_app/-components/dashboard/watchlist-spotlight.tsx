import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { TextLink } from '../../../../components/links.tsx';
import type { Watchlist, WatchlistStats } from '../../../../sample/sample-data.ts';

export function WatchlistSpotlight({
  items,
}: {
  items: readonly { watchlist: Watchlist; stats: WatchlistStats }[];
}) {
  return (
    <Card withBorder h="100%">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>Watchlist spotlight</Text>
        <Badge size="xs" variant="light" color="gray">
          Sample
        </Badge>
      </Group>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          No watchlists yet.
        </Text>
      ) : (
        <Stack gap="sm">
          {items.map(({ watchlist, stats }) => (
            <Group key={watchlist.id} justify="space-between" wrap="nowrap">
              <Stack gap={0}>
                <Text size="sm" fw={500}>
                  {watchlist.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {watchlist.resort || 'Any resort'}
                </Text>
              </Stack>
              <Text size="sm">{`${stats.available} available · ${stats.alerts} alerts`}</Text>
            </Group>
          ))}
          <TextLink to="/" search={{ view: 'watchlists' }} size="sm">
            All watchlists
          </TextLink>
        </Stack>
      )}
    </Card>
  );
}
