import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';

export type ProviderSync = components['schemas']['ProviderSync'];
export type SyncedProvider = ProviderSync['provider'];

const inProgress = (sync: ProviderSync | null | undefined) => sync?.status === 'requested' || sync?.status === 'running';

/**
 * The app's sync with a provider (null: never synced), read again every second while it runs; when a
 * sync it followed ends, what it brought in (the catalog and the rest of billing) is read again.
 */
export function useProviderSync(provider: SyncedProvider) {
  const api = useApi();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['billing', 'sync', provider],
    queryFn: async () => {
      const result = await api.GET('/~/billing/providers/{provider}/sync', { params: { path: { provider } } });
      return result.response.status === 404 ? null : dataOf(result);
    },
    refetchInterval: (query) => (inProgress(query.state.data) ? 1000 : false),
  });
  const followed = useRef(false);
  const running = inProgress(query.data);
  useEffect(() => {
    if (running) followed.current = true;
    else if (followed.current) {
      followed.current = false;
      void queryClient.invalidateQueries({ queryKey: ['billing'] });
    }
  }, [running, queryClient]);
  return query;
}

/** Asks for a sync from the start (the one running is left to finish); the catalog is read again once it is done. */
export function useRequestSync() {
  return useApiMutation(['billing'], async (api, provider: SyncedProvider) =>
    dataOf(await api.POST('/~/billing/providers/{provider}/sync', { params: { path: { provider } } })),
  );
}

export { inProgress as syncInProgress };
