import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type HealthReport, type PollClass, pollClassWords } from '@resort/shared';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import type { TemplateRecord } from '@/api/contracts.ts';
import { ButtonLink } from '@/components/links.tsx';

export const templateCardTexts = {
  noDescription: 'No description provided.',
  noGroup: 'None',
  noDate: '—',
} as const;

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </Stack>
  );
}

/** One template's alert health, as GET /api/health reports it. */
export type TemplateHealthFigures = NonNullable<HealthReport['templates']>[number];

/** The template's alerts at a glance: all seeing, or how many fail, why in words, since when. */
function TemplateHealthLine({ health }: { health: TemplateHealthFigures }) {
  if (health.failing === 0 && health.drifted === 0) {
    return (
      <Text size="sm" data-testid="template-health" mb="sm">
        {`All ${health.polled} alerts can see availability`}
      </Text>
    );
  }
  const since = health.since ? dayjs(health.since) : null;
  const cause = health.cause ? (pollClassWords[health.cause as PollClass] ?? health.cause) : null;
  return (
    <Text size="sm" c="red.8" data-testid="template-health" mb="sm">
      <strong>
        {`${health.failing} of ${health.polled} alerts failing (${Math.round(health.failingShare * 100)}%)`}
        {health.drifted > 0 ? `, ${health.drifted} drifted` : ''}
      </strong>
      {cause ? ` · ${cause}` : ''}
      {since?.isValid() ? ` · since ${since.format('MMM D, YYYY h:mm A')}` : ''}
    </Text>
  );
}

/** One template as the administration list shows it, with every fallback, and its alerts' health. */
export function TemplateCard({
  template,
  health,
}: {
  template: TemplateRecord;
  health?: TemplateHealthFigures;
}) {
  const created = template.createdAt ? dayjs(template.createdAt) : null;
  return (
    <Card withBorder padding="md" data-testid="template-card">
      <Group justify="space-between" align="flex-start" mb="xs" wrap="nowrap">
        <Title order={4}>{template.name}</Title>
        <Badge color={template.isActive ? 'teal' : 'gray'} variant="light">
          {template.isActive ? 'Active' : 'Inactive'}
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {template.description?.trim() ? template.description : templateCardTexts.noDescription}
      </Text>
      {health ? <TemplateHealthLine health={health} /> : null}
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" mb="md">
        <Detail label="Resort Code">{template.resortCode}</Detail>
        <Detail label="Template Group">{template.templateGroup?.name ?? templateCardTexts.noGroup}</Detail>
        <Detail label="Method">{template.method}</Detail>
        <Detail label="Polling Interval">{`${template.pollingIntervalSeconds} seconds`}</Detail>
        <Detail label="Created">
          {created?.isValid() ? created.format('MMM D, YYYY h:mm A') : templateCardTexts.noDate}
        </Detail>
      </SimpleGrid>
      <Group justify="flex-end">
        <ButtonLink
          to="/admin/templates/$templateId/edit"
          params={{ templateId: template.id }}
          size="xs"
          variant="light"
          aria-label={`Edit ${template.name}`}
        >
          Edit
        </ButtonLink>
      </Group>
    </Card>
  );
}
