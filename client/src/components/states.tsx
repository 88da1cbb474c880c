import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';

export function LoadingState({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Group gap="sm" role="status" aria-live="polite">
        <Loader size="sm" />
        <Text c="dimmed">{label}</Text>
      </Group>
    </Center>
  );
}

export function ErrorState({
  message,
  onRetry,
  retryLabel = 'Try again',
}: {
  message: string;
  onRetry?: () => void;
  retryLabel?: string;
}) {
  return (
    <Alert color="red" variant="light" role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        {onRetry ? (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {retryLabel}
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}

export function EmptyState({ message }: { message: string }) {
  return (
    <Center py="xl">
      <Text c="dimmed">{message}</Text>
    </Center>
  );
}
