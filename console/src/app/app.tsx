import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { RouterProvider } from 'react-router';
import type { ConsoleConfig } from '../config/console-config';
import { createManagementClient } from '../lib/api-client';
import { ApiProvider } from '../lib/api-context';
import { ApiError } from '../lib/api-error';
import { AppTimeZoneProvider } from '../lib/app-time-zone';
import { loadSession, saveSession } from '../lib/session';
import { SessionProvider } from '../lib/session-context';
import { createConsoleRouter } from './router';

/** The console: its API client, server-state cache, session and routes, composed once. */
export function App({ config }: { config: ConsoleConfig }) {
  const router = useMemo(() => createConsoleRouter(config), [config]);
  const signedOut = useRef(false);
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
          void router.navigate('/sign-in', { state: { expired: true } }).then(() => {
            signedOut.current = false;
            window.location.reload();
          });
        },
      }),
    [config, router],
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
            <RouterProvider router={router} />
          </AppTimeZoneProvider>
        </SessionProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}
