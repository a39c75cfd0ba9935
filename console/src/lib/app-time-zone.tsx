import { useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { dataOf } from './api-client';
import { useApi } from './api-context';
import { hasScope } from './session';
import { useSession } from './session-context';
import { formatTime } from './time';

const AppTimeZoneContext = createContext('UTC');

/**
 * The signed-in app's time zone (its `time_zone` setting): times are shown in it, and dates typed
 * without an offset mean it. UTC until it is known, or when the token may not read apps.
 */
export function AppTimeZoneProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const { session } = useSession();
  const app = useQuery({
    queryKey: ['apps', 'current', session?.appId],
    enabled: session !== undefined && hasScope(session, 'read:apps'),
    staleTime: 5 * 60_000,
    queryFn: async () => dataOf(await api.GET('/~/apps/{id}', { params: { path: { id: session!.appId } } })),
  });
  return <AppTimeZoneContext.Provider value={app.data?.time_zone ?? 'UTC'}>{children}</AppTimeZoneContext.Provider>;
}

export function useAppTimeZone(): string {
  return useContext(AppTimeZoneContext);
}

/** Formats an ISO time in the app's time zone. */
export function useFormatTime(): (iso: string | undefined) => string {
  const timeZone = useAppTimeZone();
  return useCallback((iso) => formatTime(iso, timeZone), [timeZone]);
}
