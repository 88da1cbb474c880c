import { Alert, Badge, Group, Stack, Text } from '@mantine/core';
import type { AlertTestAnswer } from '@/api/contracts.ts';

/** What one run of the prepared alert found: the upstream answer, availability and the rules. */
export function AlertTestResult({ result }: { result: AlertTestAnswer }) {
  const watch =
    result.watch === null
      ? 'No rules evaluated'
      : result.watch.matched
        ? 'Rules matched'
        : 'Rules not matched';
  return (
    <Stack gap="xs" role="region" aria-label="Alert test result">
      <Group gap="xs">
        <Badge color={result.success ? 'teal' : 'red'} variant="light">
          {result.success ? 'Request succeeded' : 'Request failed'}
        </Badge>
        <Badge color="gray" variant="light">{`Status: ${result.statusCode ?? '—'}`}</Badge>
        <Badge color="gray" variant="light">{`${result.durationMs} ms`}</Badge>
        <Badge color={result.availabilityOpen ? 'teal' : 'gray'} variant="light">
          {result.availabilityOpen ? 'Availability open' : 'No availability'}
        </Badge>
        <Badge color={result.watch?.matched ? 'teal' : 'gray'} variant="light">
          {watch}
        </Badge>
      </Group>
      {result.error ? (
        <Alert color="red" variant="light">
          <Text size="sm">{result.error}</Text>
        </Alert>
      ) : null}
    </Stack>
  );
}
