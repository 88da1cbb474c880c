import { Text } from '@mantine/core';

/** A small red line saying what went wrong next to the control it concerns; nothing without an error. */
export function InlineError({ error }: { error: string | null | undefined }) {
  return error ? (
    <Text size="xs" c="red" role="alert">
      {error}
    </Text>
  ) : null;
}
