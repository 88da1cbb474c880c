import { Button, Card, Group, SimpleGrid, Title } from '@mantine/core';
import type { TemplateRecord } from '@/api/contracts.ts';
import { EmptyState, ErrorState, LoadingState } from '@/components/states.tsx';
import { TemplateCard, type TemplateHealthFigures } from './template-card.tsx';

export const templateListTexts = {
  loading: 'Loading templates…',
  empty: 'No templates yet. Create one to get started.',
} as const;

/** The Templates card: Refresh, and the loading, error, empty or list state. */
export function TemplateList({
  templates,
  loading,
  refreshing,
  error,
  onRefresh,
  health,
}: {
  templates: readonly TemplateRecord[] | undefined;
  loading: boolean;
  refreshing: boolean;
  error: string | null;
  onRefresh: () => void;
  /** Each template's alert health by template id (GET /api/health); absent while unknown. */
  health?: ReadonlyMap<string, TemplateHealthFigures>;
}) {
  let body: React.ReactNode;
  if (loading) body = <LoadingState label={templateListTexts.loading} />;
  else if (error) body = <ErrorState message={error} onRetry={onRefresh} />;
  else if (!templates || templates.length === 0) body = <EmptyState message={templateListTexts.empty} />;
  else
    body = (
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {templates.map((template) => (
          <TemplateCard key={template.id} template={template} health={health?.get(template.id)} />
        ))}
      </SimpleGrid>
    );

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={3}>Templates</Title>
        <Button variant="default" size="xs" onClick={onRefresh} loading={refreshing}>
          Refresh
        </Button>
      </Group>
      {body}
    </Card>
  );
}
