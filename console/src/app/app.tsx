import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { BrowserRouter, useNavigate, type NavigateFunction } from 'react-router';
import type { ConsoleConfig } from '../config/console-config';
import { createManagementClient } from '../lib/api-client';
import { ApiProvider } from '../lib/api-context';
import { ApiError } from '../lib/api-error';
import { AppTimeZoneProvider } from '../lib/app-time-zone';
import { loadSession, saveSession } from '../lib/session';
import { SessionProvider } from '../lib/session-context';
import { ConsoleRoutes } from './router';

/** The console: its API client, server-state cache, session and routes, composed once. */
export function App({ config }: { config: ConsoleConfig }) {
  const signedOut = useRef(false);
  const navigate = useRef<NavigateFunction | undefined>(undefined);
  const client = useMemo(
    () =>
      createManagementClient({
        baseUrl: config.managementUrl,
        token: () => loadSession()?.token,
        onUnauthorized: () => {
          // The token was revoked or the session ended: forget it and go back to sign-in (once). A reload
          // starts again from the session cookie, which signs in at once if the session still lasts.
          if (signedOut.current || !loadSession()) return;
          signedOut.current = true;
          saveSession(undefined);
          navigate.current?.('/sign-in', { state: { expired: true } });
          window.location.reload();
        },
      }),
    [config],
  );
  const queries = useMemo(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            // An answer the caller can fix (4xx) is not retried; a 5xx or a network error is, twice.
            retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
            staleTime: 10_000,
          },
        },
      }),
    [],
  );
  return (
    <ApiProvider client={client}>
      <QueryClientProvider client={queries}>
        <SessionProvider
          onChange={(session) => {
            if (!session) queries.clear();
          }}
        >
          <AppTimeZoneProvider>
            <BrowserRouter basename={import.meta.env.BASE_URL.replace(/\/$/, '')}>
              <NavigationHandle into={navigate} />
              <ConsoleRoutes config={config} />
            </BrowserRouter>
          </AppTimeZoneProvider>
        </SessionProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}

/** Hands the router's navigate to code outside the routes: the API client's sign-out on a 401. */
function NavigationHandle({ into }: { into: RefObject<NavigateFunction | undefined> }) {
  const navigate = useNavigate();
  useEffect(() => {
    into.current = navigate;
  }, [into, navigate]);
  return null;
}
