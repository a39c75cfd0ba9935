import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import { PROFILE_PAGE_SIZE, profileSearchBody, type ProfileKind } from '../utils/profile-query';

/** A user or company profile as the search API returns it: the merged document the SDKs sent. */
export interface ProfileHit {
  readonly _id: string;
  readonly _source: {
    readonly user_id?: string;
    readonly company_id?: string;
    readonly campaign?: Record<string, unknown>;
    readonly metadata?: Record<string, unknown>;
    readonly created_at?: string;
    readonly updated_at?: string;
    readonly [field: string]: unknown;
  };
  readonly sort?: readonly unknown[];
}

/** Users or companies matching the text, newest change first, paged with search_after. */
export function useProfileSearch(kind: ProfileKind, text: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: ['profiles', kind, 'search', text],
    queryFn: async ({ pageParam }) => {
      const body = profileSearchBody(kind, text, pageParam);
      const result = kind === 'users' ? await api.POST('/search/~/search/users', { body }) : await api.POST('/search/~/search/companies', { body });
      const answer = dataOf(result);
      return { hits: answer.hits.hits as unknown as ProfileHit[], total: answer.hits.total };
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
      return dataOf(result) as unknown as ProfileHit;
    },
  });
}

export interface Subscription {
  readonly subscription_id?: string;
  readonly status?: string;
  readonly current_period_start?: string;
  readonly current_period_end?: string;
  readonly items?: readonly { plan_id?: string; price_id?: string }[];
  readonly [field: string]: unknown;
}

/** A company's subscriptions (up to 1000, as search hits). */
export function useCompanySubscriptions(companyId: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['profiles', 'companies', 'subscriptions', companyId],
    queryFn: async () => {
      const answer = dataOf(await api.GET('/search/~/companies/{id}/subscriptions', { params: { path: { id: companyId } } }));
      return (answer.hits.hits as unknown as { _id: string; _source: Subscription }[]).map((hit) => ({
        ...hit._source,
        subscription_id: hit._source.subscription_id ?? hit._id,
      }));
    },
  });
}
