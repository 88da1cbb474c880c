import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { InlineError } from '@/components/inline-error.tsx';

/** How long a snooze lasts, from now. */
export const snoozeChoices = [
  { value: '1', label: '1 hour' },
  { value: '4', label: '4 hours' },
  { value: '12', label: '12 hours' },
  { value: '24', label: '1 day' },
] as const;

export function snoozeUntil(hours: number, now = Date.now()): string {
  return new Date(now + hours * 3600_000).toISOString();
}

/**
 * Snooze an alert's notifications for a while without stopping its polling (the page keeps showing
 * what it sees), or wake it. Only the alert's owner sees this.
 */
export function SnoozeControl({ alertId, snoozedUntil }: { alertId: string; snoozedUntil: string | null }) {
  const api = useApi();
  const snooze = useMutation(api.alertInsight.snooze());
  const [hours, setHours] = useState<string>('1');
  const [error, setError] = useState<string | null>(null);
  const snoozed = snoozedUntil !== null && Date.parse(snoozedUntil) > Date.now();

  async function run(until: string | null) {
    setError(null);
    try {
      await snooze.mutateAsync({ id: alertId, until });
    } catch (err) {
      setError(errorMessage(err, 'Unable to change the snooze.'));
    }
  }

  return (
    <Stack gap={4} align="flex-end">
      {snoozed ? (
        <Group gap="xs">
          <Text size="sm" role="status" data-testid="alert-snoozed">
            Notifications snoozed until {new Date(snoozedUntil).toLocaleString()}
          </Text>
          <Button size="xs" variant="default" loading={snooze.isPending} onClick={() => void run(null)}>
            Wake
          </Button>
        </Group>
      ) : (
        <Group gap="xs" align="flex-end">
          <Select
            label="Snooze notifications for"
            size="xs"
            w={140}
            data={[...snoozeChoices]}
            value={hours}
            onChange={(v) => setHours(v ?? '1')}
            allowDeselect={false}
          />
          <Button
            size="xs"
            variant="default"
            loading={snooze.isPending}
            onClick={() => void run(snoozeUntil(Number(hours)))}
          >
            Snooze
          </Button>
        </Group>
      )}
      <InlineError error={error} />
    </Stack>
  );
}
