import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Loading } from '../components/loading';
import { useApi } from './api-context';
import { refreshSession, RENEW_BEFORE_MS } from './console-session';
import { loadSession, saveSession, type Session } from './session';

interface SessionState {
  readonly session: Session | undefined;
  readonly setSession: (session: Session | undefined) => void;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/**
 * Holds the signed-in session. A new tab or a reload starts by trading the session cookie for a
 * token (no password while the session lasts); the token is renewed before it expires.
 */
export function SessionProvider({ children, onChange }: { children: ReactNode; onChange?: (session: Session | undefined) => void }) {
  const api = useApi();
  const [session, setState] = useState<Session | undefined>(() => loadSession());
  const [restoring, setRestoring] = useState(session === undefined);
  const setSession = useCallback(
    (next: Session | undefined) => {
      saveSession(next);
      setState(next);
      onChange?.(next);
    },
    [onChange],
  );

  useEffect(() => {
    if (!restoring) return;
    let live = true;
    void refreshSession(api)
      .catch(() => undefined)
      .then((restored) => {
        if (!live) return;
        if (restored) setSession(restored);
        setRestoring(false);
      });
    return () => {
      live = false;
    };
  }, [api, restoring, setSession]);

  useEffect(() => {
    if (!session) return;
    const wait = Math.max(0, session.expiresAt * 1000 - Date.now() - RENEW_BEFORE_MS);
    const timer = setTimeout(() => {
      // A session ended elsewhere (sign-out in another tab) leaves this token to run out; the next 401 signs out.
      void refreshSession(api)
        .catch(() => undefined)
        .then((renewed) => {
          if (renewed) setSession(renewed);
        });
    }, wait);
    return () => clearTimeout(timer);
  }, [api, session, setSession]);

  const value = useMemo(() => ({ session, setSession }), [session, setSession]);
  if (restoring) return <Loading label="Signing in…" />;
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession needs a SessionProvider above it');
  return state;
}
