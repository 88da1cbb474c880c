import { accountMessages } from '@resort/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createSessionManager } from '@/session/session-manager.ts';
import { createSessionStore } from '@/session/session-store.ts';
import { SessionContext } from '@/session/use-session.ts';
import { ApiAnswer, type Handlers, renderWithApi } from '@/test/api-harness.tsx';
import { AccountDataSection } from './account-data-section.tsx';

function renderSection(handlers: Handlers) {
  const store = createSessionStore({ storage: localStorage });
  const manager = createSessionManager({
    store,
    refresh: async () => {
      throw new Error('no session');
    },
    loadProfile: async () => {
      throw new Error('no session');
    },
    revoke: async () => undefined,
  });
  return renderWithApi({
    handlers,
    path: '/settings',
    routes: {
      '/settings': () => (
        <SessionContext value={{ store, manager }}>
          <AccountDataSection />
        </SessionContext>
      ),
      '/login': () => <p>Sign-in page</p>,
    },
  });
}

describe('your data', () => {
  it('deletes the account only with the password, after saying what goes', async () => {
    const user = userEvent.setup();
    let refuse = true;
    const { calls } = renderSection({
      'users.deleteAccount': () => {
        if (refuse) throw new ApiAnswer(403, accountMessages.passwordWrong);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account' });
    expect(within(dialog).getByText(accountMessages.deleteOwnConfirm)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText('Password is required.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/^Password/), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText(accountMessages.passwordWrong)).toBeInTheDocument();

    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'users.deleteAccount')).toHaveLength(2);
  });

  it("shows the export's failure", async () => {
    const user = userEvent.setup();
    renderSection({
      'users.export': () => {
        throw new ApiAnswer(403, 'This API token is read-only.');
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Export my data' }));
    expect(await screen.findByText('This API token is read-only.')).toBeInTheDocument();
  });
});
