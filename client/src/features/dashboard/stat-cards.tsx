import { Card, SimpleGrid, Skeleton, Text } from '@mantine/core';

export interface StatCard {
  label: string;
  /** null while loading; a string when the server could not answer. */
  value: number | string | null;
  hint?: string;
}

export function StatCards({ cards }: { cards: readonly StatCard[] }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
      {cards.map((card) => (
        <Card withBorder key={card.label} role="group" aria-label={card.label}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {card.label}
          </Text>
          {card.value === null ? (
            <Skeleton height={28} mt={6} width={48} />
          ) : (
            <Text
              fz={typeof card.value === 'number' ? 28 : 'sm'}
              fw={700}
              c={typeof card.value === 'number' ? undefined : 'red'}
            >
              {card.value}
            </Text>
          )}
          {card.hint ? (
            <Text size="xs" c="dimmed">
              {card.hint}
            </Text>
          ) : null}
        </Card>
      ))}
    </SimpleGrid>
  );
}
