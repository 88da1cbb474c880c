import type { NotificationRecord } from '@resort/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithMantine } from '@/test/render.tsx';
import { NotificationTable } from './recent-notifications.tsx';

const record = (over: Partial<NotificationRecord>): NotificationRecord => ({
  id: 'd1',
  notificationId: 'n1',
  notificationServiceId: 's1',
  notificationService: { type: 'WEBHOOK', label: 'Hook' },
  registration: { id: 'a1', title: 'Family room', partyName: null, template: { name: 'Harbour' } },
  kind: 'MATCH',
  message: 'Alert "Family room" matched.',
  error: null,
  status: 'SUCCESS',
  attempts: 1,
  dispatchedAt: '2026-11-24T06:00:00.000Z',
  createdAt: '2026-11-24T06:00:00.000Z',
  ...over,
});

describe('recent notifications', () => {
  it('name the kind of a health notice; a match needs no label', () => {
    renderWithMantine(
      <NotificationTable
        records={[
          record({}),
          record({ id: 'd2', kind: 'FAILING', message: 'Alert "Family room" cannot see availability…' }),
          record({ id: 'd3', kind: 'RECOVERED', message: 'Alert "Family room" works again…' }),
        ]}
      />,
    );
    expect(screen.getAllByTestId('notification-kind').map((e) => e.textContent)).toEqual([
      'Cannot see',
      'Works again',
    ]);
  });
});
