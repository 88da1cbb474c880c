import { Alert, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/api/api-context.tsx';

/** A due delivery waiting longer than this is a backlog an operator should see. */
const BACKLOG_AFTER_SECONDS = 30;

function waited(seconds: number | null): string {
  if (seconds === null) return 'none';
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/**
 * The notification delivery figures of GET /api/health (every worker's, read from the outbox): the
 * queue, how long the oldest due delivery has waited, and last minute's rate, so a backlog shows
 * before a planner misses a room.
 */
export function DeliveryHealth() {
  const api = useApi();
  const { data } = useQuery(api.health.get());
  const d = data?.deliveries;
  if (!d) return null;
  if ('error' in d) {
    return (
      <Alert color="yellow" mb="md" title="Notification delivery">
        The delivery figures are unavailable right now.
      </Alert>
    );
  }
  const backlog = (d.oldestDueSeconds ?? 0) > BACKLOG_AFTER_SECONDS;
  return (
    <Alert
      color={backlog ? 'red' : 'gray'}
      mb="md"
      title={backlog ? 'Notification delivery is falling behind' : 'Notification delivery'}
      data-testid="delivery-health"
    >
      <Group gap="xl">
        <Text size="sm">
          Queue: {d.pending} undelivered ({d.due} due now)
        </Text>
        <Text size="sm">Oldest due waiting: {waited(d.oldestDueSeconds)}</Text>
        <Text size="sm">Last minute: {d.lastMinute.deliveriesPerSecond}/s</Text>
      </Group>
    </Alert>
  );
}
