import { type CreateProxy, proxyMessages, type WebProxy } from '@resort/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithMantine } from '@/test/render.tsx';
import { ProxyForm } from './proxy-form.tsx';
import { ProxyInventory, type ProxyInventoryHandlers, proxyTexts } from './proxy-inventory.tsx';

const proxy = (over: Partial<WebProxy> & Pick<WebProxy, 'id' | 'host'>): WebProxy => ({
  port: 8080,
  protocol: 'http',
  username: null,
  password: null,
  isActive: true,
  successCount: 0,
  failureCount: 0,
  consecutiveFailures: 0,
  lastAttemptAt: null,
  lastSuccessfulAt: null,
  lastSuccessfulUrl: null,
  lastFailureAt: null,
  lastFailureReason: null,
  autoDisabled: false,
  ...over,
});

const proxies = [
  proxy({ id: 'p1', host: 'fresh.example' }),
  proxy({
    id: 'p2',
    host: 'tired.example',
    isActive: false,
    successCount: 12,
    failureCount: 9,
    consecutiveFailures: 5,
    lastAttemptAt: '2026-03-01T10:00:00.000Z',
    lastFailureAt: '2026-03-01T10:00:00.000Z',
    lastFailureReason: 'connect ETIMEDOUT',
    autoDisabled: true,
  }),
];

function record() {
  const calls: unknown[][] = [];
  const handlers: ProxyInventoryHandlers = {
    onToggle: (p, on) => calls.push(['toggle', p.id, on]),
    onEdit: (p) => calls.push(['edit', p.id]),
    onResetFailures: (p) => calls.push(['reset', p.id]),
    onDelete: (p) => calls.push(['delete', p.id]),
    onBulkStatus: (on, ids) => calls.push(['bulk', on, ids]),
    onDeleteSelected: (list) => calls.push(['deleteSelected', list.map((p) => p.id)]),
    onNothingSelected: (message) => calls.push(['nothing', message]),
  };
  return { calls, handlers };
}

const renderInventory = (handlers: ProxyInventoryHandlers, list: WebProxy[] | undefined = proxies) =>
  renderWithMantine(
    <ProxyInventory
      proxies={list}
      loading={false}
      error={null}
      busyIds={new Set()}
      bulkBusy={false}
      onRetry={() => {}}
      handlers={handlers}
    />,
  );

describe('ProxyInventory', () => {
  it('shows counts, last-attempt data and the auto-disabled flag; reset needs a failure', () => {
    renderInventory(record().handlers);
    expect(screen.getAllByTestId('proxy-row')).toHaveLength(2);
    expect(screen.getByText('12 ok · 9 failed')).toBeInTheDocument();
    expect(screen.getByText('5 consecutive failures')).toBeInTheDocument();
    expect(screen.getByText(/connect ETIMEDOUT/)).toBeInTheDocument();
    expect(screen.getAllByText(proxyMessages.autoDisabled)).toHaveLength(1);
    expect(
      screen.getByRole('button', { name: 'Reset failures of http://fresh.example:8080' }),
    ).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset failures of http://tired.example:8080' })).toBeEnabled();
  });

  it('applies bulk status to all with nothing selected, else to the selection', async () => {
    const user = userEvent.setup();
    const { calls, handlers } = record();
    renderInventory(handlers);
    await user.click(screen.getByRole('button', { name: 'Disable all' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select http://tired.example:8080' }));
    await user.click(screen.getByRole('button', { name: 'Enable selected (1)' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(calls).toEqual([
      ['bulk', false, undefined],
      ['bulk', true, ['p2']],
      ['deleteSelected', ['p2']],
    ]);
  });

  it('asks for a selection before a selection-based action', async () => {
    const user = userEvent.setup();
    const { calls, handlers } = record();
    renderInventory(handlers);
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(calls).toEqual([['nothing', proxyMessages.selectFirst]]);
  });

  it('toggles, edits and deletes one proxy', async () => {
    const user = userEvent.setup();
    const { calls, handlers } = record();
    renderInventory(handlers);
    await user.click(screen.getByRole('switch', { name: 'Active http://fresh.example:8080' }));
    await user.click(screen.getByRole('button', { name: 'Edit http://tired.example:8080' }));
    await user.click(screen.getByRole('button', { name: 'Reset failures of http://tired.example:8080' }));
    await user.click(screen.getByRole('button', { name: 'Delete http://fresh.example:8080' }));
    expect(calls).toEqual([
      ['toggle', 'p1', false],
      ['edit', 'p2'],
      ['reset', 'p2'],
      ['delete', 'p1'],
    ]);
  });

  it('shows the empty and error states', () => {
    const { unmount } = renderInventory(record().handlers, []);
    expect(screen.getByText(proxyTexts.empty)).toBeInTheDocument();
    unmount();
    renderWithMantine(
      <ProxyInventory
        proxies={undefined}
        loading={false}
        error={proxyMessages.loadFailed}
        busyIds={new Set()}
        bulkBusy={false}
        onRetry={() => {}}
        handlers={record().handlers}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(proxyMessages.loadFailed);
  });
});

describe('ProxyForm', () => {
  it('validates with the shared schema and submits defaults', async () => {
    const user = userEvent.setup();
    const saved: CreateProxy[] = [];
    renderWithMantine(
      <ProxyForm
        submitLabel="Register proxy"
        onSubmit={async (values) => {
          saved.push(values);
          return true;
        }}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Register proxy' }));
    expect(screen.getByText(proxyMessages.hostRequired)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Host' }), 'proxy.example.com');
    await user.type(screen.getByRole('textbox', { name: 'Username' }), 'alice');
    await user.click(screen.getByRole('button', { name: 'Register proxy' }));
    expect(screen.getByText(proxyMessages.credentialsPair)).toBeInTheDocument();
    expect(saved).toHaveLength(0);
    await user.type(screen.getByLabelText('Password'), 's3cret');
    await user.click(screen.getByRole('button', { name: 'Register proxy' }));
    expect(saved).toEqual([
      {
        host: 'proxy.example.com',
        port: 8080,
        protocol: 'http',
        username: 'alice',
        password: 's3cret',
        isActive: true,
      },
    ]);
  });
});
