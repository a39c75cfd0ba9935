import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';

/** A bulk export: events, users or companies written to gzip parts, downloaded through signed URLs. */
export type ExportJob = components['schemas']['ExportJob'];
export type ExportInput = components['schemas']['ExportCreate'];

/** How often the list is read again while an export is queued or running. */
const PROGRESS_REFRESH_MS = 2_000;
const isActive = (job: ExportJob) => job.status === 'queued' || job.status === 'running';

export function useExports() {
  const api = useApi();
  return useQuery({
    queryKey: ['exports'],
    queryFn: async () => dataOf(await api.GET('/~/exports', { params: { query: { take: 50 } } })),
    refetchInterval: (query) => ((query.state.data ?? []).some(isActive) ? PROGRESS_REFRESH_MS : false),
  });
}

export function useStartExport() {
  return useApiMutation(['exports'], async (api, input: ExportInput) => dataOf(await api.POST('/~/exports', { body: input })));
}

export function useCancelExport() {
  return useApiMutation(['exports'], async (api, id: string) => dataOf(await api.POST('/~/exports/{id}/cancel', { params: { path: { id } } })));
}
