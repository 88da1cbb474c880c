import { isAdminRole } from '@resort/shared';
import { createContext, use, useSyncExternalStore } from 'react';
import type { SessionManager } from './session-manager.ts';
import type { Session, SessionStore } from './session-store.ts';

export interface SessionContextValue {
  store: SessionStore;
  manager: SessionManager;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSessionContext(): SessionContextValue {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionContext>.');
  return value;
}

/** The current session, re-rendering on sign-in, renewal and sign-out. */
export function useSession(): Session | null {
  const { store } = useSessionContext();
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** Who is looking: the signed-in user's id, and whether they may act on every user's alerts. */
export interface Viewer {
  userId: string | null;
  isAdmin: boolean;
}

export function useViewer(): Viewer {
  const session = useSession();
  return { userId: session?.user.id ?? null, isAdmin: isAdminRole(session?.user.roles ?? []) };
}
