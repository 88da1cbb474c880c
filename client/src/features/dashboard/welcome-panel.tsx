import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { ButtonLink } from '@/components/links.tsx';

export function WelcomePanel({ name }: { name: string }) {
  return (
    <Card withBorder p="lg" bg="teal.0">
      <Group justify="space-between" align="center" wrap="wrap">
        <Stack gap={4}>
          <Title order={3}>{`Welcome back, ${name}`}</Title>
          <Text c="dimmed">Here is what your alerts have seen lately.</Text>
        </Stack>
        <Group gap="sm">
          <ButtonLink to="/configure/alerts">Create alert</ButtonLink>
          <ButtonLink to="/alerts" variant="default">
            View all alerts
          </ButtonLink>
        </Group>
      </Group>
    </Card>
  );
}
