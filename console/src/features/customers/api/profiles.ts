import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
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

export { useCompanySubscriptions, type Subscription } from '../../../lib/company-choices';
