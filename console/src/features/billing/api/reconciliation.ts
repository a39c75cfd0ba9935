import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';

export type Reconciliation = components['schemas']['Reconciliation'];

/** The meter's last reconciliation with its provider (null: never reconciled). */
export function useReconciliation(meterId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['billing', 'reconciliation', meterId],
    queryFn: async () => {
      const result = await api.GET('/~/billing/meters/{meterId}/reconciliation', { params: { path: { meterId } } });
      return result.response.status === 404 ? null : dataOf(result);
    },
  });
}

/** Reads back what the provider holds now and compares it with what was reported. */
export function useReconcile() {
  return useApiMutation(['billing', 'reconciliation'], async (api, meterId: string) =>
    dataOf(await api.POST('/~/billing/meters/{meterId}/reconciliation', { params: { path: { meterId } } })),
  );
}

/** Sends the drift found now to the provider (every subscription's, or only the ones named), then compares again. */
export function useCorrectDrift(meterId: string) {
  return useApiMutation(['billing', 'reconciliation'], async (api, subscriptionIds: readonly string[] | undefined) =>
    dataOf(
      await api.POST('/~/billing/meters/{meterId}/reconciliation/corrections', {
        params: { path: { meterId } },
        body: subscriptionIds ? { subscription_ids: [...subscriptionIds] } : {},
      }),
    ),
  );
}
