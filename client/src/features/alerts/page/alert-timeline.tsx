import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import { Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { AlertInsight } from '@resort/shared';
import { useMemo } from 'react';

type Timeline = AlertInsight['timeline'];

/** One formatter for every bar's label (building an Intl formatter per bar costs more than formatting). */
function labeller(bucketSeconds: number): (iso: string) => string {
  const format = new Intl.DateTimeFormat(undefined, {
    ...(bucketSeconds >= 3600 ? { month: 'short', day: 'numeric' } : {}),
    hour: 'numeric',
    minute: '2-digit',
    ...(bucketSeconds < 60 ? { second: '2-digit' } : {}),
  });
  return (iso) => format.format(new Date(iso));
}

/**
 * About this many time labels on the axis (a fixed step, so the chart need not measure every label):
 * eight across a desk, three across a phone.
 */
const AXIS_LABELS = { wide: 8, phone: 3 };

/** The causes of the window's failed or drifted polls, in words, each once. */
export function TimelineCauses({
  buckets,
}: {
  buckets: readonly Pick<Timeline['buckets'][number], 'causes'>[];
}) {
  const causes = [...new Set(buckets.flatMap((b) => b.causes))];
  if (causes.length === 0) return null;
  return (
    <Text size="sm" data-testid="timeline-causes">
      {`Why polls failed: ${causes.join('; ')}`}
    </Text>
  );
}

/**
 * The alert's polls over the kept window, one bar per time bucket split by outcome (matched, not
 * matched, error), and the watched value (lowest/highest of each bucket) where it is numeric.
 */
export function AlertTimeline({ timeline }: { timeline: Timeline }) {
  const data = useMemo(() => {
    const label = labeller(timeline.bucketSeconds);
    return timeline.buckets.map((b) => ({
      at: label(b.at),
      Matched: b.matched,
      'Not matched': b.notMatched,
      Error: b.errors,
      Lowest: b.minValue,
      Highest: b.maxValue,
    }));
  }, [timeline]);
  // Read at once (no server rendering here), so a phone draws the chart once, not twice.
  const phone = useMediaQuery('(max-width: 40em)', undefined, { getInitialValueInEffect: false });
  const labels = phone ? AXIS_LABELS.phone : AXIS_LABELS.wide;
  const xAxisProps = { interval: Math.max(0, Math.ceil(data.length / labels) - 1) };
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
        xAxisProps={xAxisProps}
        // ~200 bars of three series: drawn at once, not animated from zero on every live update.
        barProps={{ isAnimationActive: false }}
        series={[
          { name: 'Matched', color: 'green.6' },
          { name: 'Not matched', color: 'gray.4' },
          { name: 'Error', color: 'red.6' },
        ]}
      />
      <TimelineCauses buckets={timeline.buckets} />
      {numeric ? (
        <LineChart
          h={140}
          data={data}
          dataKey="at"
          withLegend
          connectNulls
          tickLine="none"
          xAxisProps={xAxisProps}
          withDots={false}
          lineProps={{ isAnimationActive: false }}
          series={[
            { name: 'Lowest', color: 'indigo.6' },
            { name: 'Highest', color: 'cyan.6' },
          ]}
        />
      ) : null}
    </Stack>
  );
}
