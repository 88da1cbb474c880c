import { Table, Text } from '@mantine/core';
import type { AlertInsight, PollOutcome } from '@resort/shared';
import { WholeBadge } from '@/components/whole-badge.tsx';
import { exactTime } from '@/features/alerts/alert-time.tsx';

const outcomeBadge: Record<PollOutcome, { color: string; label: string }> = {
  matched: { color: 'green', label: 'Matched' },
  not_matched: { color: 'gray', label: 'Not matched' },
  error: { color: 'red', label: 'Error' },
};

/**
 * The newest polls: time, outcome (and, for a failed or drifted poll, what it saw in words),
 * duration, HTTP status, and through which proxy or direct.
 */
export function PollLog({ polls }: { polls: AlertInsight['polls'] }) {
  if (polls.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No polls recorded yet.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing={4} fz="sm" data-testid="poll-log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th>HTTP</Table.Th>
            <Table.Th>Via</Table.Th>
            <Table.Th>Details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {polls.map((p) => {
            const badge = outcomeBadge[p.outcome];
            return (
              <Table.Tr key={p.id}>
                <Table.Td>{exactTime(p.startedAt)}</Table.Td>
                <Table.Td>
                  <WholeBadge size="sm" variant="light" color={badge.color}>
                    {badge.label}
                  </WholeBadge>
                  {p.pollClass && p.pollClass !== 'matched' && p.pollClass !== 'not_matched' ? (
                    <Text size="xs" data-testid="poll-class">
                      {p.classWords}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{`${p.durationMs} ms`}</Table.Td>
                <Table.Td>{p.statusCode ?? '—'}</Table.Td>
                <Table.Td>{p.via ? `Proxy ${p.via}` : 'Direct'}</Table.Td>
                <Table.Td>
                  {p.error ??
                    (p.notified ? 'Notified' : p.watchedValue !== null ? `Value ${p.watchedValue}` : '')}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
