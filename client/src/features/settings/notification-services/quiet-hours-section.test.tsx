import { quietHoursMessages as q } from '@resort/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApi } from '@/test/api-harness.tsx';
import { QuietHoursSection } from './quiet-hours-section.tsx';

const saved = { enabled: false, start: '22:00', end: '07:00', timeZone: 'Europe/Paris', serviceIds: null };

describe('quiet hours in Settings', () => {
  it('shows the saved window, refuses an empty one, and saves what the planner set', async () => {
    const user = userEvent.setup();
    const { calls } = renderWithApi({
      handlers: {
        'notificationServices.quietHours': () => saved,
        'notificationServices.setQuietHours': (input) => input,
      },
      path: '/settings',
      routes: { '/settings': () => <QuietHoursSection services={[]} /> },
    });
    const from = await screen.findByLabelText('From');
    expect(from).toHaveValue('22:00');
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Paris');
    await user.click(screen.getByRole('switch', { name: 'Hold alerts during quiet hours' }));

    const until = screen.getByLabelText('Until');
    await user.clear(until);
    await user.type(until, '22:00');
    await user.click(screen.getByRole('button', { name: 'Save quiet hours' }));
    expect(await screen.findByText(q.sameStartEnd)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'notificationServices.setQuietHours')).toHaveLength(0);

    await user.clear(until);
    await user.type(until, '06:30');
    await user.click(screen.getByRole('button', { name: 'Save quiet hours' }));
    expect(await screen.findByText(q.saved)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'notificationServices.setQuietHours')).toEqual([
      {
        path: 'notificationServices.setQuietHours',
        input: { enabled: true, start: '22:00', end: '06:30', timeZone: 'Europe/Paris', serviceIds: null },
      },
    ]);
  });
});
