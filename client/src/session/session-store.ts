import type { AuthResult, User } from '@resort/shared';

/** The one localStorage key (docs/product.md, "Alerts, templates and other entities"). */
export const SESSION_STORAGE_KEY = 'resort-alerts.session';

export interface Session {
  tokens: {
    accessToken: string;
    expiresIn: number;
    /** Epoch milliseconds: the time of sign-in plus expiresIn seconds. */
    expiresAt: number;
  };
  user: User;
}

export type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function createSession(result: AuthResult, now: number): Session {
  return {
    tokens: {
      accessToken: result.tokens.accessToken,
      expiresIn: result.tokens.expiresIn,
      expiresAt: now + result.tokens.expiresIn * 1000,
    },
    user: result.user,
  };
}

export function isExpired(session: Session, now: number): boolean {
  return session.tokens.expiresAt <= now;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads what storage holds. A value without an access token or a user id is ignored; so
 * is one without a usable expiry, since its age cannot be known.
 */
export function parseSession(raw: string | null): Session | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.tokens) || !isRecord(value.user)) return null;
  const { accessToken, expiresIn, expiresAt } = value.tokens;
  const { id, name, email, roles } = value.user;
  if (typeof accessToken !== 'string' || !accessToken) return null;
  if (typeof id !== 'string' || !id) return null;
  if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) return null;
  return {
    tokens: { accessToken, expiresIn: typeof expiresIn === 'number' ? expiresIn : 0, expiresAt },
    user: {
      id,
      name: typeof name === 'string' ? name : null,
      email: typeof email === 'string' ? email : '',
      roles: Array.isArray(roles) ? (roles.filter((r) => typeof r === 'string') as User['roles']) : [],
    },
  };
}

export type SessionListener = (session: Session | null) => void;

/** The signed-in state: memory first, mirrored to storage, observable by React and the router. */
export function createSessionStore(opts: { storage: SessionStorage; now?: () => number }) {
  const { storage } = opts;
  const now = opts.now ?? Date.now;
  const listeners = new Set<SessionListener>();
  let current: Session | null = null;

  function emit() {
    for (const listener of listeners) listener(current);
  }

  function readStorage(): Session | null {
    try {
      return parseSession(storage.getItem(SESSION_STORAGE_KEY));
    } catch {
      return null;
    }
  }

  function write(session: Session | null) {
    try {
      if (session) storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
      else storage.removeItem(SESSION_STORAGE_KEY);
    } catch {
      // Storage can be full or blocked (private mode); the in-memory session still works.
    }
  }

  return {
    get: (): Session | null => current,

    /** Start-up: an expired stored session is discarded, not renewed. */
    restore(): Session | null {
      const stored = readStorage();
      if (stored && isExpired(stored, now())) {
        write(null);
        current = null;
      } else {
        current = stored;
      }
      emit();
      return current;
    },

    /** What another tab may have written since; expired values count as none. */
    peekStorage(): Session | null {
      const stored = readStorage();
      return stored && !isExpired(stored, now()) ? stored : null;
    },

    set(session: Session) {
      current = session;
      write(session);
      emit();
    },

    /** Takes a session written by another tab without writing it back. */
    adopt(session: Session | null) {
      current = session;
      emit();
    },

    updateUser(user: User) {
      if (!current || current.user.id !== user.id) return;
      current = { ...current, user };
      write(current);
      emit();
    },

    clear() {
      const had = current !== null;
      current = null;
      write(null);
      if (had) emit();
    },

    subscribe(listener: SessionListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
