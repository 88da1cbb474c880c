import { Alert, Card, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A Settings section: title, description, an optional confirmation and error, then its form. */
export function SectionCard({
  id,
  title,
  description,
  confirmation,
  error,
  children,
}: {
  id: string;
  title: string;
  description: string;
  confirmation?: string | null;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Text fw={600} id={id}>
        {title}
      </Text>
      <Text size="sm" c="dimmed" mb="md">
        {description}
      </Text>
      {confirmation ? (
        <Alert color="teal" mb="sm" role="status">
          {confirmation}
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" mb="sm" role="alert">
          {error}
        </Alert>
      ) : null}
      {children}
    </Card>
  );
}
