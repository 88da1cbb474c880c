import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApi } from '@/test/api-harness.tsx';
import { DeliveryHealth } from './delivery-health.tsx';

function health(deliveries: unknown) {
  return () => ({
    status: 'ok',
    database: { ready: true },
    queue: { ready: true },
    deliveries,
  });
}

describe('delivery health on the admin alerts page', () => {
  it('shows the queue, the oldest due delivery and the last minute’s rate', async () => {
    renderWithApi({
      handlers: {
        'health.get': health({
          pending: 12,
          due: 3,
          oldestDueSeconds: 4.2,
          oldestPendingSeconds: 900,
          lastMinute: { delivered: 600, deliveriesPerSecond: 10 },
        }),
      },
      path: '/',
      routes: { '/': DeliveryHealth },
    });
    expect(await screen.findByText('Notification delivery')).toBeTruthy();
    expect(screen.getByText('Queue: 12 undelivered (3 due now)')).toBeTruthy();
    expect(screen.getByText('Oldest due waiting: 4 s')).toBeTruthy();
    expect(screen.getByText('Last minute: 10/s')).toBeTruthy();
  });

  it('says so when deliveries fall behind', async () => {
    renderWithApi({
      handlers: {
        'health.get': health({
          pending: 5000,
          due: 5000,
          oldestDueSeconds: 300,
          oldestPendingSeconds: 300,
          lastMinute: { delivered: 0, deliveriesPerSecond: 0 },
        }),
      },
      path: '/',
      routes: { '/': DeliveryHealth },
    });
    expect(await screen.findByText('Notification delivery is falling behind')).toBeTruthy();
    expect(screen.getByText('Oldest due waiting: 5 min')).toBeTruthy();
  });
});
