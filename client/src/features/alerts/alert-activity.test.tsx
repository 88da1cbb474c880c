import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AlertRecord } from '@/api/contracts.ts';
import { AlertCards } from '@/features/alerts/list/alert-cards.tsx';
import { renderWithRouter } from '@/test/render.tsx';
import { AlertActivity } from './alert-activity.tsx';
import { alertRecord } from './alert-fixtures.ts';

const now = Date.now();
const ago = (ms: number) => new Date(now - ms).toISOString();

const alert = (over: Partial<AlertRecord> = {}): AlertRecord =>
  alertRecord({
    id: 'a1',
    status: 'ERROR',
    title: 'Lagoon watch',
    templateId: 't1',
    template: { name: 'Lagoon resort', defaultQuery: { startDate: '2026-12-23', endDate: '2026-12-27' } },
    partyName: 'Okafor family',
    dateRange: { start: '2027-01-02', end: '2027-01-06' },
    activity: {
      lastCheckedAt: ago(120_000),
      nextCheckAt: new Date(now + 30_000).toISOString(),
      availabilityChangedAt: ago(3_600_000),
      lastError: 'The http proxy 10.0.0.5:8080 failed: connection refused.',
      lastStatusCode: null,
      consecutiveErrors: 3,
      checkRequestedAt: null,
      health: 'failing',
      healthCause: 'proxy',
      healthSince: ago(600_000),
      healthWords: 'Failing: the proxy failed',
      lastSuccessAt: ago(900_000),
    },
    ...over,
  });

describe('alert activity', () => {
  it('says when the alert was checked (exact time with zone on hover), next check, since when, and why it failed', async () => {
    await renderWithRouter(<AlertActivity alert={alert()} now={now} />);
    const activity = screen.getByTestId('alert-activity');
    expect(activity).toHaveTextContent('Checked 2 minutes ago');
    expect(activity).toHaveTextContent(/Next check in (2\d|30) seconds/);
    expect(activity).toHaveTextContent('No match since 1 hour ago');
    expect(screen.getByTestId('alert-last-error')).toHaveTextContent(
      'Last error: The http proxy 10.0.0.5:8080 failed: connection refused.',
    );
    const checked = activity.querySelector('time');
    expect(checked?.getAttribute('title')).toMatch(/\d{4}.*\d{1,2}:\d{2}:\d{2}.*[A-Z]{2,5}|GMT/);
  });

  it('says a failing alert cannot see, why in words, and when it last checked successfully', async () => {
    await renderWithRouter(<AlertActivity alert={alert()} now={now} />);
    const health = screen.getByTestId('alert-health');
    expect(health).toHaveTextContent('Failing: the proxy failed');
    expect(health).toHaveTextContent('Last successful check 15 minutes ago');
  });

  it('says nothing of health while the alert is healthy', async () => {
    await renderWithRouter(
      <AlertActivity
        alert={alert({
          status: 'ACTIVE',
          activity: { ...alert().activity!, health: 'healthy', healthCause: null, healthWords: 'Healthy' },
        })}
        now={now}
      />,
    );
    expect(screen.queryByTestId('alert-health')).toBeNull();
  });

  it('shows the last error only for ERROR, and says when an alert is not checked', async () => {
    await renderWithRouter(
      <AlertActivity
        alert={alert({
          status: 'BOOKED',
          activity: { ...alert().activity!, lastCheckedAt: null, nextCheckAt: null },
        })}
        now={now}
      />,
    );
    expect(screen.getByTestId('alert-activity')).toHaveTextContent('Not checked yet');
    expect(screen.getByTestId('alert-activity')).toHaveTextContent('Not being checked');
    expect(screen.queryByTestId('alert-last-error')).toBeNull();
  });
});

describe('phone cards', () => {
  it('show title (linking to the alert page), the polled dates, status and actions', async () => {
    await renderWithRouter(
      <AlertCards
        alerts={[alert({ status: 'FIRING' })]}
        showOwner={false}
        busyId={null}
        handlers={{ onSetStatus: () => undefined, onRemove: () => undefined }}
      />,
    );
    const card = screen.getByTestId('alert-row');
    expect(within(card).getByRole('link', { name: 'Alert: Lagoon watch' })).toHaveAttribute(
      'href',
      '/alerts/a1',
    );
    expect(within(card).getByTestId('alert-dates')).toHaveTextContent('Jan 2 → Jan 6, 2027 · 4 nights');
    expect(within(card).getByText('Enabled')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Edit' })).toBeInTheDocument();
  });
});
