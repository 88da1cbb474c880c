import { type AuthResult, accountMessages } from '@resort/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSessionManager } from '@/session/session-manager.ts';
import { createSessionStore, SESSION_STORAGE_KEY } from '@/session/session-store.ts';
import { SessionContext } from '@/session/use-session.ts';
import { ApiAnswer, renderWithApi } from '@/test/api-harness.tsx';
import { LoginForm } from './login-form.tsx';
import { safeRedirectTarget } from './redirect-target.ts';
import { RegisterForm } from './register-form.tsx';

const answer: AuthResult = {
  tokens: { accessToken: 'token-1', expiresIn: 900 },
  user: { id: 'u1', name: 'Ada', email: 'ada@example.com', roles: ['user'] },
};

function withSession(children: ReactNode) {
  const store = createSessionStore({ storage: localStorage });
  const manager = createSessionManager({
    store,
    refresh: async () => answer,
    loadProfile: async () => answer.user,
    revoke: async () => undefined,
  });
  return <SessionContext value={{ store, manager }}>{children}</SessionContext>;
}

const openOptions = { signupPolicy: 'open', passwordResetByEmail: true };

const field = (name: RegExp) => screen.getByLabelText(name);

describe('sign-in form', () => {
  beforeEach(() => localStorage.clear());

  it('requires both fields, signs in, stores the session and returns to the page of origin', async () => {
    const user = userEvent.setup();
    const { calls } = renderWithApi({
      handlers: { 'auth.login': () => answer },
      path: '/login',
      routes: {
        '/login': () => withSession(<LoginForm redirectTo={safeRedirectTarget('/alerts?view=1')} />),
        '/alerts': () => <p>Alerts page</p>,
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.type(field(/Email/), 'ada@example.com');
    await user.type(field(/Password/), 'Sunshine2Castle');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Alerts page')).toBeInTheDocument();
    expect(calls).toEqual([
      { path: 'auth.login', input: { email: 'ada@example.com', password: 'Sunshine2Castle' } },
    ]);
    expect(JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}').tokens.accessToken).toBe('token-1');
  });

  it("shows the server's message when sign-in is refused", async () => {
    const user = userEvent.setup();
    renderWithApi({
      handlers: {
        'auth.login': () => {
          throw new ApiAnswer(401, 'Invalid email or password.');
        },
      },
      path: '/login',
      routes: { '/login': () => withSession(<LoginForm redirectTo="/" />) },
    });
    await user.type(await screen.findByLabelText(/Email/), 'ada@example.com');
    await user.type(field(/Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('accepts only same-site paths as the page to return to', () => {
    expect(safeRedirectTarget('/alerts?x=1')).toBe('/alerts?x=1');
    expect(safeRedirectTarget('https://evil.example/')).toBe('/');
    expect(safeRedirectTarget('//evil.example/')).toBe('/');
    expect(safeRedirectTarget('/login?redirect=/x')).toBe('/');
    expect(safeRedirectTarget(undefined)).toBe('/');
  });
});

describe('register form', () => {
  beforeEach(() => localStorage.clear());

  it('shows the password hint, checks the rule and that both passwords match', async () => {
    const user = userEvent.setup();
    const { calls } = renderWithApi({
      handlers: { 'auth.register': () => answer, 'auth.options': () => openOptions },
      path: '/register',
      routes: { '/register': () => withSession(<RegisterForm />), '/': () => <p>Home page</p> },
    });
    const hint = 'Use at least 8 characters with upper case, lower case and a digit.';
    expect(await screen.findByText(hint)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Name is required.')).toBeInTheDocument();
    expect(screen.getByText('Email is required.')).toBeInTheDocument();

    await user.type(field(/^Name/), 'Ada');
    await user.type(field(/^Email/), 'ada@example.com');
    await user.type(field(/^Password/), 'weakpass');
    await user.type(field(/^Confirm password/), 'different');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Passwords do not match.')).toBeInTheDocument();
    expect(screen.getAllByText(hint)).toHaveLength(2);
    expect(calls.filter((c) => c.path === 'auth.register')).toHaveLength(0);

    await user.clear(field(/^Password/));
    await user.type(field(/^Password/), 'Sunshine2Castle');
    await user.clear(field(/^Confirm password/));
    await user.type(field(/^Confirm password/), 'Sunshine2Castle');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'auth.register')).toEqual({
      path: 'auth.register',
      input: { name: 'Ada', email: 'ada@example.com', password: 'Sunshine2Castle' },
    });
    await waitFor(() => expect(localStorage.getItem(SESSION_STORAGE_KEY)).not.toBeNull());
  });

  it("shows the server's message when the account cannot be created", async () => {
    const user = userEvent.setup();
    renderWithApi({
      handlers: {
        'auth.register': () => {
          throw new ApiAnswer(409, 'An account with this email already exists.');
        },
      },
      path: '/register',
      routes: { '/register': () => withSession(<RegisterForm />) },
    });
    await user.type(await screen.findByLabelText(/^Name/), 'Ada');
    await user.type(field(/^Email/), 'ada@example.com');
    await user.type(field(/^Password/), 'Sunshine2Castle');
    await user.type(field(/^Confirm password/), 'Sunshine2Castle');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists.');
  });

  it('registers through an invitation link: its role is said and its address filled in', async () => {
    const user = userEvent.setup();
    const token = 'i'.repeat(43);
    const { calls } = renderWithApi({
      handlers: {
        'auth.invitation': () => ({
          role: 'user',
          email: 'ada@example.com',
          expiresAt: '2026-12-01T00:00:00Z',
        }),
        'auth.register': () => answer,
      },
      path: '/register',
      routes: {
        '/register': () => withSession(<RegisterForm invitation={token} />),
        '/': () => <p>Home page</p>,
      },
    });
    expect(await screen.findByText('You are invited as Planner.')).toBeInTheDocument();
    await waitFor(() => expect(field(/^Email/)).toHaveValue('ada@example.com'));
    await user.type(field(/^Name/), 'Ada');
    await user.type(field(/^Password/), 'Sunshine2Castle');
    await user.type(field(/^Confirm password/), 'Sunshine2Castle');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'auth.register')?.input).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'Sunshine2Castle',
      invitation: token,
    });
  });

  it('says when an invitation link is not valid', async () => {
    renderWithApi({
      handlers: {
        'auth.invitation': () => {
          throw new ApiAnswer(400, accountMessages.invitationInvalid);
        },
      },
      path: '/invited',
      routes: { '/invited': () => withSession(<RegisterForm invitation={'x'.repeat(43)} />) },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.invitationInvalid);
  });

  it('says up front that registration is closed', async () => {
    renderWithApi({
      handlers: { 'auth.options': () => ({ signupPolicy: 'closed', passwordResetByEmail: false }) },
      path: '/register',
      routes: { '/register': () => withSession(<RegisterForm />) },
    });
    expect(await screen.findByText(accountMessages.signupClosed)).toBeInTheDocument();
  });
});
