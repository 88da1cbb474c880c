import type { AuthResult, User } from '@resort/shared';
import { createSession, type Session, type SessionStore } from './session-store.ts';

/** Renew this long before the access token expires (a minute, so a slow network still makes it). */
export const RENEW_AHEAD_MS = 60_000;
/** After a failed renewal, try again this much later while the token is still valid. */
export const RENEW_RETRY_MS = 10_000;

export interface SessionManagerDeps {
  store: SessionStore;
  /** auth.refresh: rotates the httpOnly refresh cookie and answers fresh tokens. */
  refresh: () => Promise<AuthResult>;
  /** The profile refresh of start-up (users.me). */
  loadProfile: () => Promise<User>;
  /** auth.logout: revokes the refresh token on the server. */
  revoke: () => Promise<void>;
  now?: () => number;
  timers?: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
  /**
   * Serialises renewals across tabs. Two tabs presenting the same refresh token at once would look
   * like token reuse to the server, which then revokes the whole session family.
   */
  withLock?: <T>(run: () => Promise<T>) => Promise<T>;
}

export function browserLock<T>(run: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('resort-alerts.session-renewal', run) : run();
}

/** The session's life (docs/product.md, "Statuses"): restore, renew before expiry, clear at expiry. */
export function createSessionManager(deps: SessionManagerDeps) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  // Wrapped: the browser's timer functions throw 'Illegal invocation' when called as methods.
  const timers = deps.timers ?? {
    setTimeout: ((run: () => void, ms: number) => setTimeout(run, ms)) as typeof setTimeout,
    clearTimeout: ((id: ReturnType<typeof setTimeout>) => clearTimeout(id)) as typeof clearTimeout,
  };
  const withLock = deps.withLock ?? (<T>(run: () => Promise<T>) => run());
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;

  function cancelTimers() {
    if (expiryTimer !== undefined) timers.clearTimeout(expiryTimer);
    if (renewTimer !== undefined) timers.clearTimeout(renewTimer);
    expiryTimer = renewTimer = undefined;
  }

  function schedule(session: Session | null) {
    cancelTimers();
    if (!session) return;
    const left = session.tokens.expiresAt - now();
    expiryTimer = timers.setTimeout(() => store.clear(), Math.max(0, left));
    renewTimer = timers.setTimeout(() => void renew(), Math.max(0, left - RENEW_AHEAD_MS));
  }

  async function renew(): Promise<boolean> {
    const planned = store.get();
    if (!planned) return false;
    return withLock(async () => {
      const stored = store.peekStorage();
      // Another tab renewed while this one waited for the lock: take its tokens.
      if (
        stored &&
        stored.user.id === planned.user.id &&
        stored.tokens.expiresAt > planned.tokens.expiresAt
      ) {
        store.adopt(stored);
        return true;
      }
      if (store.get() !== planned) return false;
      try {
        const result = await deps.refresh();
        if (store.get() !== planned) return false;
        store.set(createSession(result, now()));
        return true;
      } catch {
        const left = planned.tokens.expiresAt - now();
        if (left > RENEW_RETRY_MS && store.get() === planned) {
          if (renewTimer !== undefined) timers.clearTimeout(renewTimer);
          renewTimer = timers.setTimeout(() => void renew(), RENEW_RETRY_MS);
        }
        return false;
      }
    });
  }

  const unsubscribe = store.subscribe(schedule);

  return {
    /** Restores the stored session and refreshes its profile; a failed refresh signs out. */
    async start(): Promise<void> {
      const session = store.restore();
      if (!session) return;
      try {
        store.updateUser(await deps.loadProfile());
      } catch {
        if (store.get()?.user.id === session.user.id) store.clear();
      }
    },

    signIn(result: AuthResult): Session {
      const session = createSession(result, now());
      store.set(session);
      return session;
    },

    async signOut(): Promise<void> {
      try {
        await deps.revoke();
      } catch {
        // The local session ends even when the server cannot be reached.
      } finally {
        store.clear();
      }
    },

    renew,

    /** Follows sign-in, renewal and sign-out done in another tab. */
    onStorageChange() {
      store.adopt(store.peekStorage());
    },

    dispose() {
      cancelTimers();
      unsubscribe();
    },
  };
}

export type SessionManager = ReturnType<typeof createSessionManager>;
