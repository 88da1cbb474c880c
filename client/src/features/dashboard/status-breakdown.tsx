import { Card, Group, Progress, Stack, Text } from '@mantine/core';
import type { DashboardSummary } from '@resort/shared';
import type { ReactNode } from 'react';

type BreakdownRow = DashboardSummary['statusBreakdown'][number];

export function StatusBreakdown({ rows, fallback }: { rows: readonly BreakdownRow[]; fallback?: ReactNode }) {
  return (
    <Card withBorder h="100%">
      <Text fw={600} mb="sm">
        Status breakdown
      </Text>
      {fallback ?? (
        <Stack gap="sm">
          {rows.map((row) => (
            <div key={row.label}>
              <Group justify="space-between" mb={4}>
                <Text size="sm">{row.label}</Text>
                <Text size="sm" c="dimmed">{`${row.count} · ${row.percent}%`}</Text>
              </Group>
              <Progress value={row.percent} aria-label={`${row.label} ${row.percent}%`} />
            </div>
          ))}
        </Stack>
      )}
    </Card>
  );
}
