import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { objectOf, textOf, type StoredHit } from '../../../lib/json-object';
import { profileHitOf } from '../../../lib/profile-hits';
import { PROFILE_PAGE_SIZE, profileSearchBody, type ProfileKind } from '../utils/profile-query';

export type { ProfileHit } from '../../../lib/profile-hits';

/** Users or companies matching the text, newest change first, paged with search_after. */
export function useProfileSearch(kind: ProfileKind, text: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: ['profiles', kind, 'search', text],
    queryFn: async ({ pageParam }) => {
      const body = profileSearchBody(kind, text, pageParam);
      const result = kind === 'users' ? await api.POST('/search/~/search/users', { body }) : await api.POST('/search/~/search/companies', { body });
      const answer = dataOf(result);
      return { hits: answer.hits.hits.map(profileHitOf), total: answer.hits.total };
    },
    initialPageParam: undefined as readonly unknown[] | undefined,
    getNextPageParam: (last) => (last.hits.length < PROFILE_PAGE_SIZE ? undefined : last.hits[last.hits.length - 1]?.sort),
    placeholderData: keepPreviousData,
  });
}

export function useProfile(kind: ProfileKind, id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['profiles', kind, 'one', id],
    queryFn: async () => {
      const params = { params: { path: { id } } };
      const result = kind === 'users' ? await api.GET('/search/~/users/{id}', params) : await api.GET('/search/~/companies/{id}', params);
      return profileHitOf(dataOf(result));
    },
  });
}

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
