import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import type { ApiSchema } from '../../../lib/api-types';

export type SubscriptionInput = ApiSchema<'Subscription'>;
export type SubscriptionStatus = SubscriptionInput['status'];

/** Indexing takes a moment after the write is accepted: the company's subscriptions are read again then. */
const REREAD_AFTER_MS = [1_500, 4_000];

/** Creates or merges one subscription, as the collector does (`POST /search/~/subscriptions`: the same rules). */
export function useSaveSubscription(companyId: string) {
  const api = useApi();
  const cache = useQueryClient();
  const reread = () => cache.invalidateQueries({ queryKey: ['profiles', 'companies', 'subscriptions', companyId] });
  return useMutation({
    mutationFn: async (input: SubscriptionInput) => dataOf(await api.POST('/search/~/subscriptions', { body: input })),
    onSuccess: () => {
      for (const delay of REREAD_AFTER_MS) setTimeout(() => void reread(), delay);
    },
  });
}
