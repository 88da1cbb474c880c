import type { SettableAlertStatus } from '@resort/shared';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { AlertRecord } from '@/api/contracts.ts';
import { activityWithHealth, alertRecord, linkedService } from '@/features/alerts/alert-fixtures.ts';
import { renderWithRouter } from '@/test/render.tsx';
import { ALERT_PAGE_SIZE, AlertList } from './alert-list.tsx';

const template = (name: string, defaultQuery: Record<string, string> = {}) => ({ name, defaultQuery });

const alerts: AlertRecord[] = [
  alertRecord({
    id: 'a-1',
    status: 'ACTIVE',
    title: 'Summer at the Poly',
    templateId: 't1',
    template: template('Polynesian Village', { checkIn: '', checkOut: '' }),
    partyName: 'Garcia',
    tags: ['beach', 'anniversary'],
    customQuery: { checkIn: '2026-07-01', checkOut: '2026-07-05' },
    notificationServices: [linkedService('s1'), linkedService('s2')],
  }),
  alertRecord({
    id: 'a-2',
    status: 'FIRING',
    title: null,
    templateId: 't2',
    template: template('Halloween Party', { startDate: '2026-10-01', endDate: '2026-10-31' }),
    partyName: 'Nguyen',
    tags: ['spooky'],
  }),
  alertRecord({
    id: 'a-3',
    status: 'BOOKED',
    title: 'Christmas week',
    templateId: 't3',
    template: template('Grand Floridian'),
    partyName: 'Okafor',
    tags: [],
  }),
];

function Harness({ initial, archive = false }: { initial: AlertRecord[]; archive?: boolean }) {
  const [list, setList] = useState(initial);
  const drop = async (alert: AlertRecord) => setList((prev) => prev.filter((a) => a.id !== alert.id));
  return (
    <AlertList
      alerts={list}
      loading={false}
      error={null}
      onSetStatus={async (alert, status: SettableAlertStatus) => {
        setList((prev) => prev.map((a) => (a.id === alert.id ? { ...a, status } : a)));
        return { status };
      }}
      onRemove={drop}
      {...(archive ? { onArchive: drop } : {})}
    />
  );
}

const rows = () => screen.queryAllByTestId('alert-row');
const chip = (name: RegExp) => screen.getByRole('radio', { name });
const search = () => screen.getByRole('textbox', { name: 'Search alerts' });

describe('AlertList', () => {
  it('searches title, template name, id, party name and tags, ignoring case', async () => {
    await renderWithRouter(<Harness initial={alerts} />);
    expect(rows()).toHaveLength(3);
    const cases: [string, string][] = [
      ['summer AT', 'a-1'],
      ['HALLOWEEN', 'a-2'],
      ['a-3', 'a-3'],
      ['okafor', 'a-3'],
      ['Spooky', 'a-2'],
    ];
    for (const [term, id] of cases) {
      fireEvent.change(search(), { target: { value: term } });
      expect(await screen.findAllByTestId('alert-row')).toHaveLength(1);
      expect(screen.getByRole('button', { name: `More actions for ${id}` })).toBeInTheDocument();
    }
  });

  it('lists failing and drifted alerts first, with the cause in words', async () => {
    const activity = (health: 'failing' | 'drifted' | 'healthy', healthWords: string) =>
      activityWithHealth(health, {
        healthCause: health === 'failing' ? 'refused' : health === 'drifted' ? 'drift' : null,
        healthWords,
      });
    const withHealth = [
      { ...alerts[0]!, activity: activity('healthy', 'Healthy') },
      {
        ...alerts[1]!,
        activity: activity('drifted', "Drifted: the answer changed shape: a rule's path is missing from it"),
      },
      {
        ...alerts[2]!,
        activity: activity('failing', 'Failing: refused by the site (blocked, login or rate limit)'),
      },
    ];
    await renderWithRouter(<Harness initial={withHealth} />);
    const order = rows().map((row) =>
      within(row)
        .getByRole('button', { name: /More actions for/ })
        .getAttribute('aria-label'),
    );
    expect(order).toEqual(['More actions for a-3', 'More actions for a-2', 'More actions for a-1']);
    expect(within(rows()[0]!).getByTestId('alert-health')).toHaveTextContent('Failing: refused by the site');
    expect(within(rows()[0]!).getByTestId('alert-health')).toHaveTextContent('No successful check yet');
  });

  it('shows one chip per status present with counts; ACTIVE and FIRING count as Enabled', async () => {
    await renderWithRouter(<Harness initial={alerts} />);
    expect(chip(/^All \(3\)$/)).toBeChecked();
    expect(chip(/^Enabled \(2\)$/)).toBeEnabled();
    expect(chip(/^Booked \(1\)$/)).toBeEnabled();
    expect(screen.queryByRole('radio', { name: /Passed/ })).not.toBeInTheDocument();

    fireEvent.click(chip(/^Booked/));
    expect(rows()).toHaveLength(1);
    expect(screen.getByText('Alert: Christmas week')).toBeInTheDocument();
  });

  it('disables a chip whose count drops to zero under the search', async () => {
    await renderWithRouter(<Harness initial={alerts} />);
    fireEvent.change(search(), { target: { value: 'garcia' } });
    expect(await screen.findByRole('radio', { name: /^All \(1\)$/ })).toBeInTheDocument();
    expect(chip(/^Booked \(0\)$/)).toBeDisabled();
    expect(chip(/^Enabled \(1\)$/)).toBeEnabled();
  });

  it('resets the filter to All when the selected status disappears', async () => {
    const user = userEvent.setup();
    await renderWithRouter(<Harness initial={alerts} />);
    await user.click(chip(/^Booked/));
    expect(rows()).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'More actions for a-3' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Mark as active' }));

    expect(await screen.findByText('Alert Christmas week marked as Enabled.')).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Booked/ })).not.toBeInTheDocument();
    expect(chip(/^All \(3\)$/)).toBeChecked();
    expect(rows()).toHaveLength(3);
  });

  it('derives the date range in order and says when none is set', async () => {
    await renderWithRouter(<Harness initial={alerts} />);
    const [first, second, third] = rows();
    // a-1: the template default has blank keys, the custom query has dates.
    expect(within(first!).getByText('Jul 1 → Jul 5, 2026 · 4 nights')).toBeInTheDocument();
    expect(within(second!).getByText('Oct 1 → Oct 31, 2026 · 30 nights')).toBeInTheDocument();
    expect(within(third!).getByText('No dates set')).toBeInTheDocument();
  });

  it('shows the resort/party cell: template name, title or fallback, notification count', async () => {
    await renderWithRouter(<Harness initial={alerts} />);
    const [first, second] = rows();
    expect(within(first!).getByText('Polynesian Village')).toBeInTheDocument();
    expect(within(first!).getByText('Alert: Summer at the Poly')).toBeInTheDocument();
    expect(within(first!).getByText('Notifications: 2')).toBeInTheDocument();
    expect(within(second!).getByText('Alert: Halloween Party')).toBeInTheDocument();
    expect(within(second!).queryByText(/Notifications:/)).not.toBeInTheDocument();
    expect(within(second!).getByText('Enabled')).toBeInTheDocument();
  });

  it('asks before removing and reports the removed id', async () => {
    const user = userEvent.setup();
    await renderWithRouter(<Harness initial={alerts} />);
    await user.click(screen.getByRole('button', { name: 'More actions for a-1' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove alert' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Remove alert "Summer at the Poly"? This action cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove alert' }));
    expect(await screen.findByText('Alert a-1 removed.')).toBeInTheDocument();
    expect(rows()).toHaveLength(2);
  });

  it('archives from the row menu on the planner list and says where the alert went', async () => {
    const user = userEvent.setup();
    await renderWithRouter(<Harness initial={alerts} archive />);
    await user.click(screen.getByRole('button', { name: 'More actions for a-3' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Archive alert' }));
    expect(
      await screen.findByText(
        'Alert Christmas week archived: it is no longer polled. Restore it from Archived.',
      ),
    ).toBeInTheDocument();
    expect(rows()).toHaveLength(2);
  });

  it('offers no archive where no archive handler is given (the admin list)', async () => {
    const user = userEvent.setup();
    await renderWithRouter(<Harness initial={alerts} />);
    await user.click(screen.getByRole('button', { name: 'More actions for a-3' }));
    await screen.findByRole('menuitem', { name: 'Remove alert' });
    expect(screen.queryByRole('menuitem', { name: 'Archive alert' })).toBeNull();
  });

  it('shows the empty, no-match, loading and error states', async () => {
    const noop = async () => undefined;
    const { unmount } = await renderWithRouter(
      <AlertList alerts={[]} loading={false} error={null} onSetStatus={noop} onRemove={noop} />,
    );
    expect(screen.getByText('No alerts yet. Create one above.')).toBeInTheDocument();
    unmount();

    await renderWithRouter(<Harness initial={alerts} />);
    fireEvent.change(search(), { target: { value: 'nothing like this' } });
    expect(
      await screen.findByText('No alerts match your search or filters. Try widening your filters.'),
    ).toBeInTheDocument();
  });

  it('shows loading and the load error with its message', async () => {
    const noop = async () => undefined;
    const first = await renderWithRouter(
      <AlertList alerts={undefined} loading error={null} onSetStatus={noop} onRemove={noop} />,
    );
    expect(screen.getByText('Loading alerts...')).toBeInTheDocument();
    first.unmount();
    const { HttpError } = await import('@/api/http.ts');
    await renderWithRouter(
      <AlertList
        alerts={undefined}
        loading={false}
        error={new HttpError(502, 'Bad gateway')}
        onSetStatus={noop}
        onRemove={noop}
      />,
    );
    expect(screen.getByText('Unable to load alerts: Bad gateway')).toBeInTheDocument();
  });

  it('pages ten thousand alerts while search and chips count all of them', async () => {
    const many: AlertRecord[] = Array.from({ length: 10_000 }, (_, i) =>
      alertRecord({
        id: `bulk-${i}`,
        status: i % 4 === 0 ? 'PASSED' : 'ACTIVE',
        title: `Trip ${i}`,
        templateId: 't',
        template: template(i % 2 === 0 ? 'Even Resort' : 'Odd Resort'),
        partyName: `Family ${i}`,
        tags: [],
      }),
    );
    await renderWithRouter(<Harness initial={many} />);
    expect(rows()).toHaveLength(ALERT_PAGE_SIZE);
    expect(chip(/^All \(10000\)$/)).toBeChecked();
    expect(chip(/^Passed \(2500\)$/)).toBeEnabled();
    expect(chip(/^Enabled \(7500\)$/)).toBeEnabled();

    await act(async () => fireEvent.change(search(), { target: { value: 'odd resort' } }));
    expect(await screen.findByRole('radio', { name: /^All \(5000\)$/ })).toBeInTheDocument();
    expect(chip(/^Passed \(0\)$/)).toBeDisabled();
    expect(screen.getByText('Showing 1–50 of 5000')).toBeInTheDocument();
  });
});
