import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';

export type MeterCompleteness = components['schemas']['MeterCompleteness'];

/** Where the meter's data stands: grace period, lateness, windows final / in grace / open, late corrections after final. */
export function useMeterCompleteness(meterId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'completeness', meterId],
    queryFn: async () => dataOf(await api.GET('/~/billing/meters/{meterId}/completeness', { params: { path: { meterId } } })),
  });
}

/** Measures how late the meter's events arrive now (else done once a day). */
export function useMeasureLateness(meterId: string) {
  return useApiMutation(['billing', 'completeness', meterId], async (api, _: undefined) =>
    dataOf(await api.POST('/~/billing/meters/{meterId}/completeness', { params: { path: { meterId } } })),
  );
}
