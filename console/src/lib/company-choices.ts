import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { dataOf } from './api-client';
import { useApi } from './api-context';
import { objectOf, textOf, type StoredHit } from './json-object';

/**
 * Companies and their subscriptions for the pickers of every feature (a credit's subscription, the
 * company a customer page opens as): chosen from the data, with search as you type, not typed.
 */

export interface Subscription {
  readonly subscription_id: string;
  readonly status?: string | undefined;
  readonly current_period_start?: string | undefined;
  readonly current_period_end?: string | undefined;
  readonly items?: readonly { plan_id?: string | undefined; price_id?: string | undefined }[] | undefined;
  readonly [field: string]: unknown;
}

/** A subscription hit as the console reads it (its id from the hit when the document has none). */
function subscriptionOf(hit: StoredHit): Subscription {
  const source = hit._source ?? {};
  const items = source['items'];
  return {
    ...source,
    subscription_id: textOf(source['subscription_id']) ?? hit._id,
    status: textOf(source['status']),
    current_period_start: textOf(source['current_period_start']),
    current_period_end: textOf(source['current_period_end']),
    items: Array.isArray(items)
      ? items.map((item: unknown) => {
          const fields = objectOf(item) ?? {};
          return { plan_id: textOf(fields['plan_id']), price_id: textOf(fields['price_id']) };
        })
      : undefined,
  };
}

/** A company's subscriptions (up to 1000, as search hits). */
export function useCompanySubscriptions(companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['profiles', 'companies', 'subscriptions', companyId],
    queryFn: async () => {
      const answer = dataOf(await api.GET('/search/~/companies/{id}/subscriptions', { params: { path: { id: companyId } } }));
      return answer.hits.hits.map(subscriptionOf);
    },
  });
}

/** Up to 20 company ids starting with the text (case-insensitive), most recently changed first. */
export function useCompanyIdSuggestions(text: string) {
  const api = useApi();
  const typed = text.trim();
  return useQuery({
    queryKey: ['profiles', 'companies', 'ids', typed],
    queryFn: async () => {
      const body = {
        size: 20,
        query: typed ? { prefix: { company_id: { value: typed, case_insensitive: true } } } : { match_all: {} },
        sort: [{ updated_at: { order: 'desc' as const } }],
      };
      const answer = dataOf(await api.POST('/search/~/search/companies', { body }));
      return answer.hits.hits.map((hit) => textOf(hit._source?.['company_id']) ?? hit._id);
    },
    placeholderData: keepPreviousData,
  });
}
