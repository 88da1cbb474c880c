import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import type { AlertInsight } from '@resort/shared';
import { useMemo } from 'react';

type Timeline = AlertInsight['timeline'];

function label(iso: string, bucketSeconds: number): string {
  const d = new Date(iso);
  return new Intl.DateTimeFormat(undefined, {
    ...(bucketSeconds >= 3600 ? { month: 'short', day: 'numeric' } : {}),
    hour: 'numeric',
    minute: '2-digit',
    ...(bucketSeconds < 60 ? { second: '2-digit' } : {}),
  }).format(d);
}

/**
 * The alert's polls over the kept window, one bar per time bucket split by outcome (matched, not
 * matched, error), and the watched value (lowest/highest of each bucket) where it is numeric.
 */
export function AlertTimeline({ timeline }: { timeline: Timeline }) {
  const data = useMemo(
    () =>
      timeline.buckets.map((b) => ({
        at: label(b.at, timeline.bucketSeconds),
        Matched: b.matched,
        'Not matched': b.notMatched,
        Error: b.errors,
        Lowest: b.minValue,
        Highest: b.maxValue,
      })),
    [timeline],
  );
  const numeric = timeline.buckets.some((b) => b.minValue !== null);
  if (timeline.buckets.length === 0) {
    return (
      <Text c="dimmed" size="sm" data-testid="timeline-empty">
        No polls yet. The first check shows here as soon as it is made.
      </Text>
    );
  }
  const summary = `${timeline.polls} polls, ${timeline.buckets.reduce((n, b) => n + b.matched, 0)} matched`;
  return (
    <Stack gap="xs" data-testid="alert-timeline" data-polls={timeline.polls}>
      <Text size="sm" c="dimmed" aria-live="polite">
        {`${summary} · bars of ${timeline.bucketSeconds >= 60 ? `${timeline.bucketSeconds / 60} min` : `${timeline.bucketSeconds} s`}`}
      </Text>
      <BarChart
        h={180}
        data={data}
        dataKey="at"
        type="stacked"
        withLegend
        tickLine="none"
        series={[
          { name: 'Matched', color: 'green.6' },
          { name: 'Not matched', color: 'gray.4' },
          { name: 'Error', color: 'red.6' },
        ]}
      />
      {numeric ? (
        <LineChart
          h={140}
          data={data}
          dataKey="at"
          withLegend
          connectNulls
          tickLine="none"
          series={[
            { name: 'Lowest', color: 'indigo.6' },
            { name: 'Highest', color: 'cyan.6' },
          ]}
        />
      ) : null}
    </Stack>
  );
}
