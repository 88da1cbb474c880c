import { type AlertPayload, defaultDateValue, alertMessages as m, templateMessages } from '@resort/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AlertTestAnswer } from '@/api/contracts.ts';
import { existingAlert, groups, poly, popCentury, services } from '@/features/alerts/alert-fixtures.ts';
import { renderWithMantine } from '@/test/render.tsx';
import { AlertForm, type AlertFormProps, noServiceWarning } from './alert-form.tsx';

function setup(over: Partial<AlertFormProps> = {}) {
  const submitted: AlertPayload[] = [];
  const tested: AlertPayload[] = [];
  const props: AlertFormProps = {
    templates: [poly, popCentury],
    groups,
    templatesError: null,
    services,
    isAdmin: false,
    editing: null,
    onSubmit: async (payload) => {
      submitted.push(payload);
    },
    onTest: async (payload): Promise<AlertTestAnswer> => {
      tested.push(payload);
      return {
        success: true,
        statusCode: 200,
        durationMs: 41,
        availabilityOpen: true,
        watch: { matched: true },
      };
    },
    onCancel: () => {},
    ...over,
  };
  renderWithMantine(<AlertForm {...props} />);
  return { submitted, tested, user: userEvent.setup() };
}

type User = ReturnType<typeof userEvent.setup>;
const combobox = (name: string) => screen.getByRole('combobox', { name });
const textbox = (name: string) => screen.getByRole('textbox', { name });
async function choose(user: User, input: HTMLElement, option: string) {
  await user.click(input);
  await user.click(await screen.findByRole('option', { name: option }));
}
const chooseTemplate = (user: User, name = poly.name) => choose(user, combobox('Template'), name);
const submit = (user: User, label = 'Create alert') =>
  user.click(screen.getByRole('button', { name: label }));

describe('AlertForm: template, defaults and rules', () => {
  it('loads the chosen template’s defaults and rules', async () => {
    const { user } = setup();
    expect(screen.getAllByText(m.chooseTemplateFirst).length).toBeGreaterThan(0);
    await chooseTemplate(user);
    expect(textbox('Check-in date')).toHaveValue(defaultDateValue(new Date()));
    expect(textbox('Adults')).toHaveValue('2');
    expect(textbox('Polling interval (seconds)')).toHaveValue('120');
    expect(screen.getByRole('switch', { name: 'Nightly price at most' })).toBeChecked();
    // Rules that are off stay folded (a short Tab path) until asked for.
    expect(screen.queryByRole('switch', { name: 'Any room available' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Show 1 more rules (off)' }));
    expect(screen.getByRole('switch', { name: 'Any room available' })).not.toBeChecked();
    expect(textbox('Threshold')).toHaveValue('400');
    expect(screen.getByRole('group', { name: 'Party composition' })).toBeInTheDocument();
    // Inactive services are hidden.
    expect(screen.getByRole('checkbox', { name: 'Primary Email Alerts (Email)' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /Old phone/ })).toBeNull();
  });

  it('clears a chosen template that is not in the chosen group', async () => {
    const { user } = setup();
    await chooseTemplate(user);
    expect(combobox('Group')).toHaveValue('Deluxe resorts');
    await choose(user, combobox('Group'), 'Value resorts');
    expect(combobox('Template')).toHaveValue('');
    expect(screen.getAllByText(m.chooseTemplateFirst).length).toBeGreaterThan(0);
  });

  it('shows the resort type, the disabled offer type and the admin-only cadence for admins', async () => {
    const { user } = setup({ isAdmin: true });
    await chooseTemplate(user);
    expect(
      within(screen.getByRole('region', { name: 'Resort' })).getAllByText('Deluxe').length,
    ).toBeGreaterThan(1);
    expect(combobox('Offer type')).toBeDisabled();
    expect(screen.getByText('Coming soon')).toBeInTheDocument();
    expect(screen.getByText('Admin only')).toBeInTheDocument();
  });

  it('hides the cadence selector from ordinary users', async () => {
    const { user } = setup();
    await chooseTemplate(user);
    expect(screen.queryByText('Admin only')).toBeNull();
  });
});

describe('AlertForm: validation with the shared schema', () => {
  it('requires a template', async () => {
    const { user, submitted } = setup();
    await submit(user);
    expect(screen.getByText(m.templateRequired)).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
  });

  it('reports required fields, linked entries, rules, polling interval and JSON', async () => {
    const { user, submitted } = setup();
    await chooseTemplate(user);
    await user.clear(textbox('Adults'));
    await user.type(textbox('Children'), '{backspace}2');
    await user.click(screen.getByRole('switch', { name: 'Nightly price at most' }));
    await user.clear(textbox('Polling interval (seconds)'));
    await user.click(screen.getByRole('button', { name: 'Show custom request options' }));
    await user.click(textbox('Custom body (JSON)'));
    await user.paste('{ not json');
    await submit(user);
    expect(screen.getByText(m.requiredSummary)).toBeInTheDocument();
    expect(screen.getByText(m.fieldRequired)).toBeInTheDocument();
    expect(screen.getByText(m.linkedEntries(2, 'Children'))).toBeInTheDocument();
    expect(screen.getByText(m.ruleRequired)).toBeInTheDocument();
    expect(screen.getByText(m.pollingIntervalNumber)).toBeInTheDocument();
    expect(screen.getByText(m.invalidJson)).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
  });

  it('requires a rule input and a future date', async () => {
    const { user, submitted } = setup({
      editing: { ...existingAlert, overrides: { body: { 'stay.checkIn': '2001-01-01' } } },
    });
    await user.clear(textbox('Threshold'));
    await submit(user, 'Save alert');
    expect(screen.getByText(m.inputRequired('Nightly price at most', 'Threshold'))).toBeInTheDocument();
    expect(screen.getByText(m.dateInPast)).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
  });

  it('sends the payload the server expects', async () => {
    const { user, submitted } = setup();
    await chooseTemplate(user);
    await user.type(textbox('Children'), '{backspace}1');
    await user.type(textbox('Child ages 1'), '9');
    await user.type(textbox('Title'), 'Spring break');
    // Every active service comes preselected; the planner unticks the e-mail.
    expect(screen.getByRole('checkbox', { name: 'Team hook (Webhook)' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Primary Email Alerts (Email)' }));
    expect(screen.getByRole('checkbox', { name: /Urgent/ })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: /Urgent/ }));
    await submit(user);
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      templateId: 't-poly',
      title: 'Spring break',
      pollingIntervalSeconds: 120,
      notificationServiceIds: ['s-hook'],
      urgent: true,
      overrides: {
        body: {
          'stay.checkIn': defaultDateValue(new Date()),
          'party.adults': 2,
          'party.children': 1,
          'party.childAges': [9],
        },
      },
      watchConfig: {
        all: [{ presetId: 'max-price', path: 'rooms[*].nightlyPrice', operator: 'lte', value: 400 }],
        any: [],
        notifyOn: 'everyMatch',
      },
    });
  });

  it('shows the fallback message when saving fails without one', async () => {
    const { user } = setup({
      onSubmit: async () => {
        throw new Error('offline');
      },
    });
    await chooseTemplate(user);
    await submit(user);
    expect(await screen.findByText('Unable to create alert.')).toBeInTheDocument();
  });
});

describe('AlertForm: edit mode and test', () => {
  it('fills the form from the existing alert', () => {
    setup({ editing: existingAlert });
    expect(combobox('Template')).toHaveValue(poly.name);
    expect(combobox('Group')).toHaveValue('Deluxe resorts');
    expect(textbox('Check-in date')).toHaveValue('2099-07-01');
    expect(textbox('Adults')).toHaveValue('3');
    expect(textbox('Child ages 1')).toHaveValue('7');
    expect(combobox('Room type')).toHaveValue('Deluxe view');
    expect(textbox('Threshold')).toHaveValue('350');
    expect(textbox('Title')).toHaveValue('Anniversary trip');
    expect(textbox('Party name')).toHaveValue('Garcia');
    expect(screen.getByText('anniversary')).toBeInTheDocument();
    expect(textbox('Polling interval (seconds)')).toHaveValue('300');
    expect(screen.getByRole('checkbox', { name: 'Primary Email Alerts (Email)' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Cancel editing' })).toBeInTheDocument();
  });

  it('runs the prepared payload and shows the alert test result', async () => {
    const { user, tested } = setup({ editing: existingAlert });
    await user.click(screen.getByRole('button', { name: 'Test alert' }));
    const result = await screen.findByRole('region', { name: 'Alert test result' });
    for (const text of ['Request succeeded', 'Status: 200', '41 ms', 'Availability open', 'Rules matched']) {
      expect(within(result).getByText(text)).toBeInTheDocument();
    }
    expect(tested[0]).toMatchObject({ templateId: 't-poly', overrides: { query: { roomType: 'DLX' } } });
  });

  it('shows the template load error', () => {
    setup({ templates: [], templatesError: templateMessages.loadListFailedRefresh });
    expect(screen.getByText(templateMessages.loadListFailedRefresh)).toBeInTheDocument();
  });
});

describe('AlertForm: keyboard and who is notified', () => {
  it('opens the Template select on Enter instead of submitting, and picks with the keyboard', async () => {
    const { user, submitted } = setup();
    combobox('Template').focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('option', { name: poly.name })).toBeInTheDocument();
    expect(screen.queryByText(m.templateRequired)).toBeNull();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(combobox('Template')).toHaveValue(poly.name);
    expect(submitted).toHaveLength(0);
  });

  it('clears the template error and the summary once a template is chosen', async () => {
    const { user } = setup();
    await submit(user);
    expect(screen.getByText(m.templateRequired)).toBeInTheDocument();
    await chooseTemplate(user);
    expect(screen.queryByText(m.templateRequired)).toBeNull();
    expect(screen.queryByText(m.chooseTemplateFirst)).toBeNull();
  });

  it('clears a field error as soon as the field changes', async () => {
    const { user } = setup();
    await chooseTemplate(user);
    await user.clear(textbox('Polling interval (seconds)'));
    await submit(user);
    expect(screen.getByText(m.pollingIntervalNumber)).toBeInTheDocument();
    await user.type(textbox('Polling interval (seconds)'), '60');
    expect(screen.queryByText(m.pollingIntervalNumber)).toBeNull();
    expect(screen.queryByText(m.requiredSummary)).toBeNull();
  });

  it('asks before saving an alert that notifies no one', async () => {
    const { user, submitted } = setup();
    await chooseTemplate(user);
    await user.click(screen.getByRole('checkbox', { name: 'Primary Email Alerts (Email)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Team hook (Webhook)' }));
    await submit(user);
    const dialog = await screen.findByRole('dialog', { name: noServiceWarning.title });
    expect(within(dialog).getByText(noServiceWarning.message)).toBeInTheDocument();
    expect(submitted).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: noServiceWarning.confirm }));
    expect(submitted).toHaveLength(1);
    expect(submitted[0]?.notificationServiceIds).toEqual([]);
  });
});
