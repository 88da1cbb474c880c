import { Button, Code, Collapse, Group, Text } from '@mantine/core';
import type { AlertInsight } from '@resort/shared';
import { useMemo, useState } from 'react';
import { exactTime } from '@/features/alerts/alert-time.tsx';

const MAX_SHOWN = 200_000;

/** The last answer, as collapsible pretty JSON. */
export function LastAnswer({ answer }: { answer: AlertInsight['lastAnswer'] }) {
  const [open, setOpen] = useState(false);
  const text = useMemo(() => {
    if (!answer || answer.json === null) return null;
    const pretty = JSON.stringify(answer.json, null, 2);
    return pretty.length > MAX_SHOWN ? `${pretty.slice(0, MAX_SHOWN)}\n…` : pretty;
  }, [answer]);
  if (!answer)
    return (
      <Text c="dimmed" size="sm">
        No answer received yet.
      </Text>
    );
  return (
    <>
      <Group justify="space-between">
        <Text size="sm">
          {`Received ${exactTime(answer.receivedAt)} · HTTP ${answer.statusCode ?? '—'} · ${(answer.bytes / 1024).toFixed(1)} KB`}
        </Text>
        {text !== null ? (
          <Button size="xs" variant="light" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? 'Hide answer' : 'Show answer'}
          </Button>
        ) : null}
      </Group>
      {text === null ? (
        <Text size="sm" c="dimmed">
          The answer was too large to keep.
        </Text>
      ) : (
        <Collapse expanded={open}>
          <Code block mt="xs" mah={420} style={{ overflow: 'auto' }} data-testid="last-answer">
            {text}
          </Code>
        </Collapse>
      )}
    </>
  );
}
