import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { loadSession, saveSession, type Session } from './session';

interface SessionState {
  readonly session: Session | undefined;
  readonly setSession: (session: Session | undefined) => void;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/** Holds the signed-in session; sessionStorage keeps it across reloads of the tab. */
export function SessionProvider({ children, onChange }: { children: ReactNode; onChange?: (session: Session | undefined) => void }) {
  const [session, setState] = useState<Session | undefined>(() => loadSession());
  const setSession = useCallback((next: Session | undefined) => {
    saveSession(next);
    setState(next);
    onChange?.(next);
  }, [onChange]);
  const value = useMemo(() => ({ session, setSession }), [session, setSession]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession needs a SessionProvider above it');
  return state;
}
