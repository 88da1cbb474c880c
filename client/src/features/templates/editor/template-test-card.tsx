import { Alert, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { templateMessages } from '@resort/shared';
import type { TemplateTestAnswer } from '@/api/contracts.ts';

const pretty = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The live test: available once the template is saved; shows request, response, duration and error. */
export function TemplateTestCard({
  saved,
  result,
  error,
  running,
  onRun,
}: {
  saved: boolean;
  result: TemplateTestAnswer | null;
  error: string | null;
  running: boolean;
  onRun: () => void;
}) {
  return (
    <Stack gap="sm">
      <Group>
        <Button onClick={onRun} loading={running} disabled={!saved}>
          Run live test
        </Button>
        {saved ? null : (
          <Text size="sm" c="dimmed">
            {templateMessages.saveBeforeTest}
          </Text>
        )}
      </Group>
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      {result ? (
        <Stack gap="xs" role="region" aria-label="Live test result">
          <Group gap="sm">
            <Badge
              color={result.response && result.response.status < 400 ? 'teal' : 'red'}
              variant="light"
            >{`Status: ${result.response ? result.response.status : 'no response'}`}</Badge>
            <Badge color="gray" variant="light">{`${result.durationMs} ms`}</Badge>
          </Group>
          {result.error ? (
            <Alert color="red" variant="light" title="Error">
              {result.error}
            </Alert>
          ) : null}
          <Text size="sm" fw={600}>
            Request
          </Text>
          {/* Focusable: a long line scrolls sideways, and keyboard users must reach it (WCAG 2.1.1). */}
          <Code
            block
            tabIndex={0}
            aria-label="Request sent"
          >{`${result.request.method} ${result.request.url}\n${pretty({
            headers: result.request.headers,
            body: result.request.body ?? null,
          })}`}</Code>
          <Text size="sm" fw={600}>
            Response data
          </Text>
          <Code block tabIndex={0} aria-label="Response data" style={{ maxHeight: 360, overflow: 'auto' }}>
            {result.response ? pretty(result.response.data) : '—'}
          </Code>
        </Stack>
      ) : null}
    </Stack>
  );
}
