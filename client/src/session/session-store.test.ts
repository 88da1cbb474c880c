import type { AuthResult } from '@resort/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSession, createSessionStore, parseSession, SESSION_STORAGE_KEY } from './session-store.ts';

const result: AuthResult = {
  tokens: { accessToken: 'token-1', expiresIn: 900 },
  user: { id: 'u1', name: 'Ada', email: 'ada@example.com', roles: ['user'] },
};

describe('session store', () => {
  let clock = 1_000_000;
  const now = () => clock;

  beforeEach(() => {
    localStorage.clear();
    clock = 1_000_000;
  });

  it('computes expiresAt as now plus expiresIn seconds and stores the session under one key', () => {
    const store = createSessionStore({ storage: localStorage, now });
    store.set(createSession(result, now()));
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? 'null');
    expect(stored.tokens.expiresAt).toBe(1_000_000 + 900_000);
    expect(stored.user.email).toBe('ada@example.com');
    expect(localStorage.length).toBe(1);
  });

  it('restores a stored session that has not expired', () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(createSession(result, now())));
    clock += 899_000;
    const store = createSessionStore({ storage: localStorage, now });
    expect(store.restore()?.tokens.accessToken).toBe('token-1');
    expect(store.get()?.user.id).toBe('u1');
  });

  it('discards an expired stored session and removes it from storage', () => {
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(createSession(result, now())));
    clock += 900_000;
    const store = createSessionStore({ storage: localStorage, now });
    expect(store.restore()).toBeNull();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('ignores a stored value without an access token or a user id', () => {
    const session = createSession(result, now());
    const noToken = { ...session, tokens: { ...session.tokens, accessToken: '' } };
    const noUser = { ...session, user: { ...session.user, id: undefined } };
    expect(parseSession(JSON.stringify(noToken))).toBeNull();
    expect(parseSession(JSON.stringify(noUser))).toBeNull();
    expect(parseSession('not json')).toBeNull();
    expect(parseSession(JSON.stringify(session))?.user.name).toBe('Ada');
  });

  it('notifies listeners on set and clear, and clear empties storage', () => {
    const store = createSessionStore({ storage: localStorage, now });
    const seen: (string | null)[] = [];
    store.subscribe((s) => seen.push(s?.user.id ?? null));
    store.set(createSession(result, now()));
    store.clear();
    expect(seen).toEqual(['u1', null]);
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('updates the user of the current session only', () => {
    const store = createSessionStore({ storage: localStorage, now });
    store.set(createSession(result, now()));
    store.updateUser({ id: 'someone-else', name: 'X', email: 'x@example.com', roles: [] });
    expect(store.get()?.user.name).toBe('Ada');
    store.updateUser({ ...result.user, name: 'Ada Lovelace', roles: ['user', 'admin'] });
    expect(parseSession(localStorage.getItem(SESSION_STORAGE_KEY))?.user.roles).toEqual(['user', 'admin']);
  });
});
