import { accountMessages } from '@resort/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiAnswer, renderWithApi } from '@/test/api-harness.tsx';
import { fragmentToken } from './fragment-token.ts';
import { ForgotPasswordForm, ResetPasswordForm } from './password-forms.tsx';

const token = 'a'.repeat(43);

describe('forgot password', () => {
  it("checks the address, then shows the server's same-for-all answer", async () => {
    const user = userEvent.setup();
    const { calls } = renderWithApi({
      handlers: {
        'auth.options': () => ({ signupPolicy: 'open', passwordResetByEmail: true }),
        'auth.forgotPassword': () => ({ message: accountMessages.resetLinkSent }),
      },
      path: '/forgot-password',
      routes: { '/forgot-password': ForgotPasswordForm },
    });
    await user.click(await screen.findByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Email/), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === 'auth.forgotPassword')).toHaveLength(0);

    await user.clear(screen.getByLabelText(/Email/));
    await user.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(accountMessages.resetLinkSent);
    expect(calls.find((c) => c.path === 'auth.forgotPassword')?.input).toEqual({ email: 'ada@example.com' });
  });

  it('says to ask an administrator when the server cannot send e-mail', async () => {
    renderWithApi({
      handlers: { 'auth.options': () => ({ signupPolicy: 'open', passwordResetByEmail: false }) },
      path: '/forgot-password',
      routes: { '/forgot-password': ForgotPasswordForm },
    });
    expect(await screen.findByText(accountMessages.resetByEmailUnavailable)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send reset link' })).toBeNull();
  });
});

describe('reset password', () => {
  it('reads the token from the fragment only', () => {
    expect(fragmentToken(`#token=${token}`, 'token')).toBe(token);
    expect(fragmentToken('#invitation=abc', 'token')).toBeNull();
    expect(fragmentToken('', 'token')).toBeNull();
  });

  it('checks the new password, sends it with the token and offers sign-in', async () => {
    const user = userEvent.setup();
    const { calls } = renderWithApi({
      handlers: { 'auth.resetPassword': () => undefined },
      path: '/reset',
      routes: { '/reset': () => <ResetPasswordForm token={token} /> },
    });
    await user.type(await screen.findByLabelText(/^New password/), 'Sunshine2Castle');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Different2Castle');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Passwords do not match.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Sunshine2Castle');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('status')).toHaveTextContent(accountMessages.passwordReset);
    expect(calls).toEqual([{ path: 'auth.resetPassword', input: { token, password: 'Sunshine2Castle' } }]);
  });

  it('says at once that a link without a token is not valid', async () => {
    renderWithApi({
      handlers: {},
      path: '/reset',
      routes: { '/reset': () => <ResetPasswordForm token={null} /> },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.resetLinkInvalid);
    expect(screen.queryByLabelText(/^New password/)).toBeNull();
  });

  it("shows the server's refusal of a used link", async () => {
    const user = userEvent.setup();
    renderWithApi({
      handlers: {
        'auth.resetPassword': () => {
          throw new ApiAnswer(400, accountMessages.resetLinkInvalid);
        },
      },
      path: '/reset',
      routes: { '/reset': () => <ResetPasswordForm token={token} /> },
    });
    await user.type(await screen.findByLabelText(/^New password/), 'Sunshine2Castle');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'Sunshine2Castle');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.resetLinkInvalid);
  });
});
