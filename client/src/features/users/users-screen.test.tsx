import { type AdminUser, accountMessages } from '@resort/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createSessionManager } from '@/session/session-manager.ts';
import { createSessionStore } from '@/session/session-store.ts';
import { SessionContext } from '@/session/use-session.ts';
import { ApiAnswer, type Handlers, renderWithApi } from '@/test/api-harness.tsx';
import { UsersScreen } from './users-screen.tsx';

const planner: AdminUser = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Pat Planner',
  email: 'pat@example.com',
  roles: ['user'],
  createdAt: '2026-01-01T10:00:00.000Z',
  lastSignInAt: null,
  alertCount: 2,
  channelCount: 1,
  disabled: false,
  emailVerified: true,
};

/** A signed-in admin (or super admin) looking at the screen. */
function asViewer(roles: string[], children: ReactNode) {
  const store = createSessionStore({ storage: localStorage });
  const user = { id: 'admin-1', name: 'Ada', email: 'ada@example.com', roles };
  store.set({ tokens: { accessToken: 't', expiresIn: 900 }, user } as never);
  const manager = createSessionManager({
    store,
    refresh: async () => ({ tokens: { accessToken: 't', expiresIn: 900 }, user }) as never,
    loadProfile: async () => user as never,
    revoke: async () => undefined,
  });
  return <SessionContext value={{ store, manager }}>{children}</SessionContext>;
}

function renderScreen(handlers: Handlers, roles = ['user', 'admin']) {
  return renderWithApi({
    handlers: {
      'invitations.list': () => [],
      'signupSettings.get': () => ({ policy: 'open', defaultPolicy: 'open' }),
      'adminUsers.get': () => ({ ...planner, alerts: [], watchlistCount: 0, apiTokenCount: 0 }),
      ...handlers,
    },
    path: '/admin/users',
    routes: { '/admin/users': () => asViewer(roles, <UsersScreen />) },
  });
}

describe('the Users screen', () => {
  it('lists accounts, searches them and says when none match', async () => {
    const user = userEvent.setup();
    const { calls } = renderScreen({
      'adminUsers.list': (input) => ((input as { search?: string } | undefined)?.search ? [] : [planner]),
    });
    expect(await screen.findByText('Pat Planner')).toBeInTheDocument();
    expect(screen.getByText('pat@example.com')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Search accounts'), 'zed');
    expect(await screen.findByText('No accounts match.')).toBeInTheDocument();
    expect(
      calls.some((c) => c.path === 'adminUsers.list' && (c.input as { search?: string })?.search === 'zed'),
    ).toBe(true);
  });

  it("shows the list's error with a retry", async () => {
    renderScreen({
      'adminUsers.list': () => {
        throw new ApiAnswer(403, 'Admin rights are required.');
      },
    });
    expect(await screen.findByText('Admin rights are required.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('disables an account and reports it', async () => {
    const user = userEvent.setup();
    const { calls } = renderScreen({
      'adminUsers.list': () => [planner],
      'adminUsers.setDisabled': () => ({ ...planner, disabled: true }),
    });
    await user.click(await screen.findByRole('button', { name: 'Open Pat Planner' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    expect(await within(dialog).findByText(accountMessages.userDisabled('Pat Planner'))).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'adminUsers.setDisabled')?.input).toEqual({
      id: planner.id,
      disabled: true,
    });
  });

  it('returns focus to the Open button when the dialog closes with Escape', async () => {
    const user = userEvent.setup();
    renderScreen({ 'adminUsers.list': () => [planner] });
    const openButton = await screen.findByRole('button', { name: 'Open Pat Planner' });
    openButton.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open Pat Planner' })).toHaveFocus());
  });

  it('asks before deleting, naming what goes', async () => {
    const user = userEvent.setup();
    const { calls } = renderScreen({
      'adminUsers.list': () => [planner],
      'adminUsers.remove': () => undefined,
    });
    await user.click(await screen.findByRole('button', { name: 'Open Pat Planner' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete account' }),
    );
    expect(await screen.findByText(accountMessages.deleteConfirm('Pat Planner', 2, 1))).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'adminUsers.remove')).toBe(false);
    const confirm = screen.getAllByRole('button', { name: 'Delete account' }).at(-1);
    if (!confirm) throw new Error('no confirm button');
    await user.click(confirm);
    expect(await screen.findByText(accountMessages.userDeleted('Pat Planner'))).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'adminUsers.remove')?.input).toEqual({ id: planner.id });
  });

  it("lets only a super admin change roles, and shows the server's refusal", async () => {
    const user = userEvent.setup();
    renderScreen(
      {
        'adminUsers.list': () => [planner],
        'adminUsers.setLevel': () => {
          throw new ApiAnswer(409, accountMessages.lastSuperAdmin);
        },
      },
      ['user', 'super_admin'],
    );
    await user.click(await screen.findByRole('button', { name: 'Open Pat Planner' }));
    const dialog = await screen.findByRole('dialog');
    const role = within(dialog).getByRole('combobox', { name: 'Role' });
    expect(role).toBeEnabled();
    await user.click(role);
    await user.click(await screen.findByRole('option', { name: 'Admin' }));
    expect(await within(dialog).findByText(accountMessages.lastSuperAdmin)).toBeInTheDocument();
  });

  it('creates an invitation and shows its link once', async () => {
    const user = userEvent.setup();
    const url = 'http://app.example/register#invitation=abcdefghijklmnopqrstuvwxyz';
    const { calls } = renderScreen({
      'adminUsers.list': () => [],
      'invitations.create': () => ({
        id: '22222222-2222-4222-8222-222222222222',
        role: 'user',
        email: null,
        status: 'pending',
        createdAt: '2026-01-01T10:00:00.000Z',
        expiresAt: '2026-01-08T10:00:00.000Z',
        usedAt: null,
        url,
        emailed: false,
      }),
    });
    await user.type(await screen.findByLabelText(/E-mail \(optional\)/), 'nope');
    await user.click(screen.getByRole('button', { name: 'Create invitation' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/E-mail \(optional\)/));
    await user.click(screen.getByRole('button', { name: 'Create invitation' }));
    await waitFor(() => expect(screen.getByLabelText('Invitation link')).toHaveValue(url));
    expect(calls.find((c) => c.path === 'invitations.create')?.input).toEqual({ role: 'user', email: null });
  });
});
