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
