import { Container, Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/')({
  component: () => (
    <Container py="xl">
      <Title>Resort Alerts</Title>
    </Container>
  ),
});
