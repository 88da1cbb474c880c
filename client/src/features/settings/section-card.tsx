import { Card, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { type Feedback, FeedbackBanner } from '@/components/feedback.tsx';

/**
 * A Settings section: title, description, its confirmation (shown for a few seconds, see
 * useFeedback's `lastsMs`) and its error, then its form.
 */
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
  confirmation?: Feedback | null;
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
      <FeedbackBanner feedback={confirmation ?? null} mb="sm" />
      <FeedbackBanner feedback={error ? { tone: 'error', message: error } : null} mb="sm" />
      {children}
    </Card>
  );
}
