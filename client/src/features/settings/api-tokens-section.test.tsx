import type { ApiToken, CreateApiTokenInput } from '@resort/shared';
import { apiTokenMessages } from '@resort/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { HttpError } from '@/api/http.ts';
import { renderWithMantine } from '@/test/render.tsx';
import { ApiTokensPanel } from './api-tokens-section.tsx';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const listed: ApiToken[] = [
  {
    id: 't1',
    name: 'Booking script',
    scope: 'read-write',
    displayPrefix: 'ra_pat_AbCd',
    expiresAt: null,
    createdAt: '2026-05-01T10:00:00Z',
    lastUsedAt: null,
  },
];

function setup(opts: { failCreate?: Error } = {}) {
  const created: CreateApiTokenInput[] = [];
  const revoked: string[] = [];
  renderWithMantine(
    <ApiTokensPanel
      tokens={listed}
      now={() => NOW}
      onCreate={async (input) => {
        if (opts.failCreate) throw opts.failCreate;
        created.push(input);
        return { token: 'ra_pat_secretvalue' };
      }}
      onRevoke={async (id) => {
        revoked.push(id);
      }}
    />,
  );
  return { created, revoked, user: userEvent.setup() };
}

describe('ApiTokensPanel', () => {
  it('requires a name, creates with scope and expiry, and shows the token once', async () => {
    const { created, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText(apiTokenMessages.nameRequired)).toBeInTheDocument();
    expect(created).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'Token name' }), 'CI');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByTestId('new-api-token')).toHaveTextContent('ra_pat_secretvalue');
    expect(screen.getByText(/shown this once/)).toBeInTheDocument();
    expect(created).toEqual([
      { name: 'CI', scope: 'read-only', expiresAt: new Date(NOW + 90 * 86_400_000).toISOString() },
    ]);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('new-api-token')).not.toBeInTheDocument();
  });

  it('lists tokens by prefix with created and last-used times, and revokes', async () => {
    const { revoked, user } = setup();
    expect(screen.getByText('Booking script')).toBeInTheDocument();
    expect(screen.getByText('ra_pat_AbCd…')).toBeInTheDocument();
    expect(screen.getAllByText('Never').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Revoke Booking script' }));
    expect(revoked).toEqual(['t1']);
  });

  it('shows the server’s message when creation fails', async () => {
    const { user } = setup({ failCreate: new HttpError(409, apiTokenMessages.tooMany) });
    await user.type(screen.getByRole('textbox', { name: 'Token name' }), 'x');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(apiTokenMessages.tooMany);
  });
});
