import { type AlertPayload, localToday, stayWindowMessages } from '@resort/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TemplateRecord } from '@/api/contracts.ts';
import { alertRecord, groups, poly, services } from '@/features/alerts/alert-fixtures.ts';
import { renderWithMantine } from '@/test/render.tsx';
import { alertDatesText } from '../alert-text.ts';
import { checkInDays, StayCalendar } from '../page/stay-calendar.tsx';
import { AlertForm } from './alert-form.tsx';
import { fromAlert, templateModel } from './alert-form-model.ts';
import { stayWindowsOf } from './alert-form-payload.ts';
import { stayCountText } from './stay-window-section.tsx';

/** The Polynesian template with a nights field and a declared stay. */
const polyStays: TemplateRecord = {
  ...poly,
  id: 't-poly-stays',
  name: 'Polynesian stays',
  editableFields: [
    ...poly.editableFields,
    {
      target: 'BODY',
      path: 'stay.nights',
      label: 'Nights',
      fieldType: 'NUMBER',
      defaultValue: 4,
      displayOrder: 5,
    },
  ],
  stay: {
    checkIn: { target: 'BODY', path: 'stay.checkIn' },
    nights: { target: 'BODY', path: 'stay.nights' },
  },
};

const june = { start: '2099-06-01', end: '2099-06-30', minNights: 4, maxNights: 5 };

describe('stayCountText: the stay count before saving', () => {
  it('counts the stays, or says why the window cannot be watched', () => {
    expect(stayCountText({ ...june, arrivalWeekdays: [] }, '2099-01-01')).toEqual({
      text: 'This window means 51 stays (at most 120).',
      problem: false,
    });
    expect(
      stayCountText({ ...june, minNights: 1, maxNights: 10, arrivalWeekdays: [] }, '2099-01-01').text,
    ).toBe(stayWindowMessages.tooManyStays(245, 120));
    expect(stayCountText({ ...june, maxNights: '', arrivalWeekdays: [] }, '2099-01-01').problem).toBe(true);
  });
});

describe('AlertForm: flexible dates', () => {
  it('replaces the stay fields by a window, shows its stay count and sends stayWindow', async () => {
    const submitted: AlertPayload[] = [];
    renderWithMantine(
      <AlertForm
        templates={[poly, polyStays]}
        groups={groups}
        templatesError={null}
        services={services}
        isAdmin={false}
        editing={null}
        onSubmit={async (p) => {
          submitted.push(p);
        }}
        onTest={async () => ({
          success: true,
          statusCode: 200,
          durationMs: 1,
          availabilityOpen: true,
          watch: null,
        })}
        onCancel={() => {}}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'Polynesian stays' }));
    await user.click(screen.getByRole('switch', { name: /Flexible dates/ }));
    expect(screen.queryByRole('textbox', { name: 'Check-in date' })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Nights' })).toBeNull();
    const window = screen.getByRole('group', { name: 'Flexible dates' });
    const first = within(window).getByRole('textbox', { name: /First check-in/ });
    const last = within(window).getByRole('textbox', { name: /Last check-out/ });
    await user.clear(first);
    await user.type(first, june.start);
    await user.clear(last);
    await user.type(last, june.end);
    for (const day of ['Thu', 'Fri', 'Sat'])
      await user.click(within(window).getByRole('checkbox', { name: day }));
    // June 2099: Thu–Sat check-ins 4–6, 11–13, 18–20, 25–27; 4 and 5 nights up to the 25th, 4 on the
    // 26th, none on the 27th: 21 stays.
    expect(screen.getByTestId('stay-count')).toHaveTextContent('This window means 21 stays (at most 120).');
    await user.click(screen.getByRole('button', { name: 'Create alert' }));
    expect(submitted).toHaveLength(1);
    expect(submitted[0]!.stayWindow).toEqual([{ ...june, arrivalWeekdays: ['thu', 'fri', 'sat'] }]);
    expect(submitted[0]!.overrides?.body).not.toHaveProperty('stay.checkIn');
    expect(submitted[0]!.overrides?.body).not.toHaveProperty('stay.nights');
  });
});

describe('editing a window alert', () => {
  it('keeps the windows after the first (set through the API) when the form saves', () => {
    const july = { start: '2099-07-01', end: '2099-07-15', minNights: 3, maxNights: 3 };
    const alert = alertRecord({ templateId: polyStays.id, stayWindow: [june, july] });
    const model = templateModel(polyStays);
    const values = fromAlert(alert, model, new Date('2099-01-01T00:00:00Z'));
    expect(values.stayWindow).toMatchObject(june);
    expect(stayWindowsOf(values)).toEqual([june, july]);
  });
});

describe('the list row and the availability calendar', () => {
  it('sums the window up in the list row', () => {
    const alert = alertRecord({ stayWindow: [{ ...june, arrivalWeekdays: ['thu', 'fri', 'sat'] }] });
    expect(alertDatesText(alert)).toBe('Jun 1–30 · 4–5 nights · Thu–Sat');
  });

  it('marks each check-in day open, not open or not checked, with the nights that opened', () => {
    const window = [{ start: '2099-06-01', end: '2099-06-08', minNights: 3, maxNights: 3 }];
    const states = {
      checkedAt: '2099-01-01T00:00:00Z',
      stays: [
        { checkIn: '2099-06-01', checkOut: '2099-06-04', nights: 3, state: 'closed' as const },
        { checkIn: '2099-06-02', checkOut: '2099-06-05', nights: 3, state: 'open' as const },
      ],
    };
    const days = checkInDays(window, states, localToday());
    expect(days.map((d) => [d.checkIn, d.state])).toEqual([
      ['2099-06-01', 'closed'],
      ['2099-06-02', 'open'],
      ['2099-06-03', 'unchecked'],
      ['2099-06-04', 'unchecked'],
      ['2099-06-05', 'unchecked'],
    ]);
    renderWithMantine(<StayCalendar windows={window} states={states} />);
    expect(screen.getByTestId('stay-calendar-summary')).toHaveTextContent(
      'Open: Tue Jun 2 → Fri Jun 5, 3 nights.',
    );
    const items = within(screen.getByRole('list', { name: 'Check-in days' })).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('Mon Jun 1Not open');
    expect(items[1]).toHaveTextContent('Tue Jun 2Open3 nights');
    expect(items[2]).toHaveTextContent('Wed Jun 3Not checked');
  });
});
