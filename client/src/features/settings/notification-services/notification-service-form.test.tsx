import { MantineProvider } from '@mantine/core';
import type { NotificationServiceType } from '@resort/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { HttpError } from '@/api/http.ts';
import { renderWithMantine } from '@/test/render.tsx';
import { NotificationServiceForm } from './notification-service-form.tsx';
import type { NotificationServicePayload } from './notification-service-form-model.ts';

function setup(
  configuredTypes: NotificationServiceType[] = [],
  opts: { failCreate?: Error; testAnswer?: { message?: string } | null } = {},
) {
  const created: NotificationServicePayload[] = [];
  const tested: NotificationServicePayload[] = [];
  renderWithMantine(
    <NotificationServiceForm
      configuredTypes={configuredTypes}
      onCreate={async (payload) => {
        if (opts.failCreate) throw opts.failCreate;
        created.push(payload);
      }}
      onTest={async (payload) => {
        tested.push(payload);
        return opts.testAnswer ?? null;
      }}
    />,
  );
  return { created, tested, user: userEvent.setup() };
}

const typeSelect = () => screen.getByRole('combobox', { name: 'Type' });

async function chooseType(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(typeSelect());
  await user.click(await screen.findByRole('option', { name: label }));
}

describe('NotificationServiceForm', () => {
  it('validates the webhook URL and half-filled headers, and sends headers as a map', async () => {
    const { created, user } = setup();
    expect(typeSelect()).toHaveValue('Webhook');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(await screen.findByText('Webhook URL must be a valid URL')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: /Webhook URL/ }), 'https://hooks.example.com/in');
    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.type(screen.getByRole('textbox', { name: 'Header 1 name' }), 'X-Token');
    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.type(screen.getByRole('textbox', { name: 'Header 2 value' }), 'orphan');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(await screen.findByText('Header value is required')).toBeInTheDocument();
    expect(screen.getByText('Header name is required')).toBeInTheDocument();
    expect(created).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'Header 1 value' }), 'secret');
    await user.click(screen.getByRole('button', { name: 'Remove header 2' }));
    await user.click(screen.getByRole('button', { name: 'Add header' }));
    await user.click(screen.getByRole('button', { name: 'Add service' }));

    expect(await screen.findByText('Notification service WEBHOOK created.')).toBeInTheDocument();
    expect(created[0]).toEqual({
      type: 'WEBHOOK',
      config: {
        url: 'https://hooks.example.com/in',
        method: 'POST',
        headers: [{ name: 'X-Token', value: 'secret' }],
        bodyTemplate: '{"content": "{{message}}"}',
      },
    });
  });

  it('disables Add header at 15 headers', async () => {
    const { user } = setup();
    const add = screen.getByRole('button', { name: 'Add header' });
    for (let i = 0; i < 15; i += 1) await user.click(add);
    expect(screen.getAllByRole('textbox', { name: /Header \d+ name/ })).toHaveLength(15);
    expect(add).toBeDisabled();
  });

  it('validates the Slack URL; channel and username are optional', async () => {
    const { created, user } = setup();
    await chooseType(user, 'Slack Webhook');
    await user.type(screen.getByRole('textbox', { name: /Slack webhook URL/ }), 'not a url');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(await screen.findByText('Slack webhook URL must be a valid URL')).toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: /Slack webhook URL/ }));
    await user.type(screen.getByRole('textbox', { name: /Slack webhook URL/ }), 'https://hooks.slack.com/x');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(await screen.findByText('Notification service SLACK_WEBHOOK created.')).toBeInTheDocument();
    expect(created[0]).toEqual({ type: 'SLACK_WEBHOOK', config: { url: 'https://hooks.slack.com/x' } });
  });

  it('validates the destination email and number', async () => {
    const { user } = setup();
    await chooseType(user, 'Email');
    await user.type(screen.getByRole('textbox', { name: /Destination email/ }), 'nope');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(await screen.findByText('Destination email must be valid')).toBeInTheDocument();

    await chooseType(user, 'SMS');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(await screen.findByText('Destination number is required')).toBeInTheDocument();
  });

  it('keeps the label but resets the fields when the type changes', async () => {
    const { user } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Label' }), 'Family phone');
    await chooseType(user, 'Email');
    await user.type(screen.getByRole('textbox', { name: /Destination email/ }), 'a@example.com');
    await chooseType(user, 'SMS');
    await chooseType(user, 'Email');
    expect(screen.getByRole('textbox', { name: 'Label' })).toHaveValue('Family phone');
    expect(screen.getByRole('textbox', { name: /Destination email/ })).toHaveValue('');
  });

  it('disables configured single types in the selector and starts on a free one', async () => {
    const { user } = setup(['WEBHOOK', 'EMAIL', 'SLACK_WEBHOOK']);
    expect(typeSelect()).toHaveValue('Slack Webhook');
    await user.click(typeSelect());
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByRole('option', { name: 'Email' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(listbox).getByRole('option', { name: 'Webhook' })).toHaveAttribute('aria-disabled', 'true');
    expect(within(listbox).getByRole('option', { name: 'SMS' })).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('refuses a single type that became configured meanwhile', async () => {
    const user = userEvent.setup();
    const created: NotificationServicePayload[] = [];
    const form = (configured: NotificationServiceType[]) => (
      <NotificationServiceForm
        configuredTypes={configured}
        onCreate={async (payload) => created.push(payload)}
        onTest={async () => null}
      />
    );
    const { rerender } = renderWithMantine(form([]));
    await chooseType(user, 'Email');
    await user.type(screen.getByRole('textbox', { name: /Destination email/ }), 'a@example.com');
    rerender(<MantineProvider env="test">{form(['EMAIL'])}</MantineProvider>);
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(await screen.findByText('EMAIL channel already configured.')).toBeInTheDocument();
    expect(created).toHaveLength(0);
  });

  it('shows the server message when creating fails, else the fallback', async () => {
    const { user } = setup([], { failCreate: new HttpError(409, 'EMAIL channel already configured.') });
    await chooseType(user, 'Email');
    await user.type(screen.getByRole('textbox', { name: /Destination email/ }), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(await screen.findByText('EMAIL channel already configured.')).toBeInTheDocument();
  });

  it('sends a test and shows its message or the default confirmation', async () => {
    const { tested, user } = setup([], { testAnswer: null });
    await chooseType(user, 'SMS');
    await user.type(screen.getByRole('textbox', { name: /Destination number/ }), '+15550100');
    await user.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('Test notification dispatched successfully.')).toBeInTheDocument();
    expect(tested).toEqual([{ type: 'SMS', config: { toNumber: '+15550100' } }]);
  });

  it('validates and sends the native channels: ntfy with its priority, Telegram with its token and chat', async () => {
    const { created, user } = setup();
    await chooseType(user, 'ntfy');
    expect(screen.getByRole('textbox', { name: /ntfy server URL/ })).toHaveValue('https://ntfy.sh');
    await user.type(screen.getByRole('textbox', { name: /Topic/ }), 'bad topic!');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(
      await screen.findByText('Topic may contain only letters, digits, - and _ (at most 64)'),
    ).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: /Topic/ }));
    await user.type(screen.getByRole('textbox', { name: /Topic/ }), 'resort-openings');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    await screen.findByRole('button', { name: 'Add service' });
    expect(created[0]).toEqual({
      type: 'NTFY',
      config: { url: 'https://ntfy.sh', topic: 'resort-openings', priority: 3 },
    });

    await chooseType(user, 'Telegram');
    await user.type(screen.getByRole('textbox', { name: /Bot token/ }), 'not-a-token');
    await user.type(screen.getByRole('textbox', { name: /Chat id/ }), '-1001234567890');
    await user.click(screen.getByRole('button', { name: 'Add service' }));
    expect(
      await screen.findByText('Bot token must look like 123456:ABC… as BotFather gives it'),
    ).toBeInTheDocument();
    expect(created).toHaveLength(1);
  });
});
