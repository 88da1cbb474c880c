import { alertListMessages } from '@resort/shared';
import { useSearch } from '@tanstack/react-router';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NavigationFeedback } from '@/components/feedback.tsx';
import { existingAlert, groups, poly, popCentury, services } from '@/features/alerts/alert-fixtures.ts';
import { ApiAnswer, type Handlers, renderWithApi } from '@/test/api-harness.tsx';
import { AlertFormScreen } from './alert-form-screen.tsx';

const viewer = { userId: 'u-1', isAdmin: false };

function FormRoute() {
  const { alert } = useSearch({ strict: false }) as { alert?: string };
  return <AlertFormScreen alertId={alert} viewer={viewer} />;
}

function AlertsRoute() {
  return (
    <>
      <h1>Alerts</h1>
      <NavigationFeedback />
    </>
  );
}

const handlers = (over: Handlers = {}): Handlers => ({
  'templates.list': () => [poly, popCentury],
  'templateGroups.list': () => groups,
  'users.me': () => ({
    user: { id: 'u-1', email: 'ana@example.com', name: 'Ana', roles: ['user'] },
    notificationServices: services,
    registrations: [],
  }),
  'users.preferences': () => ({ push: true, email: true, sms: false, healthNotices: true }),
  'alerts.get': (input) => {
    if ((input as { id: string }).id === existingAlert.id) return existingAlert;
    throw new ApiAnswer(404, 'Alert not found.');
  },
  ...over,
});

const routes = { '/configure/alerts': FormRoute, '/alerts': AlertsRoute };

describe('AlertFormScreen edit mode', () => {
  it('reports an alert that cannot be found and removes the parameter', async () => {
    const { router } = renderWithApi({ handlers: handlers(), path: '/configure/alerts?alert=a-404', routes });
    // The new-alert form shows once the preferences that pick its default services are read, with
    // the message handed over.
    expect(await screen.findByRole('button', { name: 'Create alert' })).toBeInTheDocument();
    expect(screen.getByText(alertListMessages.notFoundForEditing('a-404'))).toBeInTheDocument();
    expect(router.state.location.search).toEqual({});
  });

  it('loads the alert, and cancelling leaves edit mode with a message', async () => {
    const user = userEvent.setup();
    const { router } = renderWithApi({ handlers: handlers(), path: '/configure/alerts?alert=a-1', routes });
    expect(await screen.findByDisplayValue('Anniversary trip')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel editing' }));
    expect(await screen.findByText(alertListMessages.editingCancelled)).toBeInTheDocument();
    expect(router.state.location.search).toEqual({});
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('');
  });

  it('saves the edited alert and returns to the alert list with the success banner', async () => {
    const user = userEvent.setup();
    const { router, calls } = renderWithApi({
      handlers: handlers({ 'alerts.update': (input) => ({ ...existingAlert, ...(input as object) }) }),
      path: '/configure/alerts?alert=a-1',
      routes,
    });
    const title = await screen.findByDisplayValue('Anniversary trip');
    await user.clear(title);
    await user.type(title, 'Ruby anniversary');
    await user.click(screen.getByRole('button', { name: 'Save alert' }));
    expect(await screen.findByText('Alert "Ruby anniversary" updated.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/alerts');
    const update = calls.find((c) => c.path === 'alerts.update');
    expect(update?.input).toMatchObject({ id: 'a-1', title: 'Ruby anniversary', templateId: 't-poly' });
  });

  it('shows the server message when saving is refused', async () => {
    const user = userEvent.setup();
    renderWithApi({
      handlers: handlers({
        'alerts.update': () => {
          throw new ApiAnswer(400, 'Choose from your active notification services.');
        },
      }),
      path: '/configure/alerts?alert=a-1',
      routes,
    });
    await screen.findByDisplayValue('Anniversary trip');
    await user.click(screen.getByRole('button', { name: 'Save alert' }));
    await waitFor(() =>
      expect(screen.getByText('Choose from your active notification services.')).toBeInTheDocument(),
    );
  });
});
