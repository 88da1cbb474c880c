import type { AuthResult, User } from '@resort/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionManager, RENEW_AHEAD_MS } from './session-manager.ts';
import { createSession, createSessionStore, SESSION_STORAGE_KEY } from './session-store.ts';

const user: User = { id: 'u1', name: 'Ada', email: 'ada@example.com', roles: ['user'] };
const issue = (token: string): AuthResult => ({ tokens: { accessToken: token, expiresIn: 900 }, user });

function setup(overrides: { refresh?: () => Promise<AuthResult>; loadProfile?: () => Promise<User> } = {}) {
  const store = createSessionStore({ storage: localStorage });
  const calls = { refresh: 0, revoke: 0 };
  const manager = createSessionManager({
    store,
    refresh:
      overrides.refresh ??
      (async () => {
        calls.refresh += 1;
        return issue(`renewed-${calls.refresh}`);
      }),
    loadProfile: overrides.loadProfile ?? (async () => ({ ...user, name: 'Ada Lovelace' })),
    revoke: async () => {
      calls.revoke += 1;
    },
  });
  return { store, manager, calls };
}

describe('session manager', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z') });
  });
  afterEach(() => vi.useRealTimers());

  it('refreshes the profile of a restored session on start', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(createSession(issue('t'), Date.now())));
    const { store, manager } = setup();
    await manager.start();
    expect(store.get()?.user.name).toBe('Ada Lovelace');
    manager.dispose();
  });

  it('clears the restored session when the profile refresh fails', async () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(createSession(issue('t'), Date.now())));
    const { store, manager } = setup({ loadProfile: () => Promise.reject(new Error('401')) });
    await manager.start();
    expect(store.get()).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    manager.dispose();
  });

  it('renews through the refresh cookie a minute before expiry', async () => {
    const { store, manager, calls } = setup();
    manager.signIn(issue('first'));
    await vi.advanceTimersByTimeAsync(900_000 - RENEW_AHEAD_MS - 1);
    expect(calls.refresh).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.refresh).toBe(1);
    expect(store.get()?.tokens.accessToken).toBe('renewed-1');
    expect(store.get()?.tokens.expiresAt).toBe(Date.now() + 900_000);
    manager.dispose();
  });

  it('clears the session when the expiry time arrives without a renewal', async () => {
    const { store, manager } = setup({ refresh: () => Promise.reject(new Error('offline')) });
    manager.signIn(issue('first'));
    await vi.advanceTimersByTimeAsync(899_999);
    expect(store.get()?.tokens.accessToken).toBe('first');
    await vi.advanceTimersByTimeAsync(1);
    expect(store.get()).toBeNull();
    manager.dispose();
  });

  it('takes the tokens another tab renewed instead of presenting the cookie again', async () => {
    const { store, manager, calls } = setup();
    manager.signIn(issue('first'));
    const other = createSession(issue('from-other-tab'), Date.now() + 60_000);
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(other));
    expect(await manager.renew()).toBe(true);
    expect(calls.refresh).toBe(0);
    expect(store.get()?.tokens.accessToken).toBe('from-other-tab');
    manager.dispose();
  });

  it('revokes on the server and clears locally on sign-out', async () => {
    const { store, manager, calls } = setup();
    manager.signIn(issue('first'));
    await manager.signOut();
    expect(calls.revoke).toBe(1);
    expect(store.get()).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    manager.dispose();
  });
});
