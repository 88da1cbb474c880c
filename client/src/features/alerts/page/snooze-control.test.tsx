import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApi } from '@/test/api-harness.tsx';
import { SnoozeControl, snoozeUntil } from './snooze-control.tsx';

const id = '44444444-4444-4444-8444-444444444444';

describe('snooze control', () => {
  it('snoozes for the chosen hours, and wakes a snoozed alert', async () => {
    const user = userEvent.setup();
    const later = new Date(Date.now() + 3600_000).toISOString();
    const { calls } = renderWithApi({
      handlers: { 'alerts.snooze': () => ({ id }) },
      path: '/a',
      routes: {
        '/a': () => (
          <>
            <SnoozeControl alertId={id} snoozedUntil={null} />
            <SnoozeControl alertId={id} snoozedUntil={later} />
          </>
        ),
      },
    });
    const before = Date.now();
    await user.click(await screen.findByRole('combobox', { name: 'Snooze notifications for' }));
    await user.click(await screen.findByRole('option', { name: '4 hours' }));
    await user.click(screen.getByRole('button', { name: 'Snooze' }));
    await user.click(screen.getByRole('button', { name: 'Wake' }));
    expect(screen.getByTestId('alert-snoozed')).toHaveTextContent('Notifications snoozed until');
    await expect.poll(() => calls.length).toBe(2);
    const [snooze, wake] = calls as { path: string; input: { id: string; until: string | null } }[];
    expect(snooze!.input.id).toBe(id);
    const until = Date.parse(snooze!.input.until!);
    expect(until).toBeGreaterThanOrEqual(before + 4 * 3600_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 4 * 3600_000);
    expect(wake!.input).toEqual({ id, until: null });
  });

  it('counts the hours from now', () => {
    expect(snoozeUntil(2, Date.UTC(2026, 0, 1))).toBe('2026-01-01T02:00:00.000Z');
  });
});
