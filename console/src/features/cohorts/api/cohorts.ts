import type { components } from '../../../lib/api-schema';
import type { ApiSchema } from '../../../lib/api-types';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';
import type { CohortType } from '../utils/criteria';
import { isJsonObject } from '../../../lib/json-object';

/** A cohort as the console works with it: the API's, with `criteria` as the query object. */
export type Cohort = Pick<ApiSchema<'Cohort'>, '_id' | 'cohort_name' | 'cohort_type' | 'sample_rate'> & { readonly criteria: Record<string, unknown> };

/** The API stores and answers `criteria` as JSON text (the spec's shape); the console works with the object. */
function withCriteria(stored: ApiSchema<'Cohort'>): Cohort {
  // Text per the document; an object is taken as it is.
  const criteria: unknown = typeof stored.criteria === 'string' ? JSON.parse(stored.criteria) : stored.criteria;
  const { _id, cohort_name, cohort_type, sample_rate } = stored;
  return { _id, cohort_name, cohort_type, ...(sample_rate === undefined ? {} : { sample_rate }), criteria: isJsonObject(criteria) ? criteria : {} };
}

export function useCohorts() {
  const api = useApi();
  return useQuery({
    queryKey: ['cohorts'],
    queryFn: async () => dataOf(await api.GET('/~/cohorts', { params: { query: { take: 100 } } })).map(withCriteria),
  });
}

/** The cohorts, a page at a time. */
export function useCohortPages() {
  const api = useApi();
  return useKeysetPages<Cohort>(['cohorts', 'pages'], async (beforeId) => {
    const page = keysetPage<ApiSchema<'Cohort'>>(
      await api.GET('/~/cohorts', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } }),
    );
    return { ...page, items: page.items.map(withCriteria) };
  });
}

export function useCohort(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['cohorts', id],
    queryFn: async () => withCriteria(dataOf(await api.GET('/~/cohorts/{cohortId}', { params: { path: { cohortId: id } } }))),
  });
}

/** Creates a cohort, or updates one when `id` is given. */
export function useSaveCohort() {
  return useApiMutation(['cohorts'], async (api, input: { id?: string; cohort_name: string; cohort_type: CohortType; criteria: Record<string, unknown> }) => {
    const { id, ...body } = input;
    const result = id
      ? await api.POST('/~/cohorts/{cohortId}', { params: { path: { cohortId: id } }, body: body })
      : await api.POST('/~/cohorts', { body: body });
    return withCriteria(dataOf(result));
  });
}

export function useDeleteCohort() {
  return useApiMutation(['cohorts'], async (api, id: string) => {
    dataOf(await api.DELETE('/~/cohorts/{cohortId}', { params: { path: { cohortId: id } } }));
  });
}

const MEMBERS_PAGE = 25;

/**
 * Who the criteria select now, a page of 25 at a time in id order, counted by the server as a saved
 * cohort is (profile criteria and behaviour): the live count while editing, the list on a cohort's page.
 */
export function useCohortMembers(type: CohortType, criteria: Record<string, unknown> | undefined) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: ['cohorts', 'members', type, criteria],
    enabled: criteria !== undefined,
    queryFn: async ({ pageParam }) =>
      dataOf(
        await api.POST('/~/cohorts/members/preview', {
          body: { cohort_type: type, criteria: criteria!, take: MEMBERS_PAGE, ...(pageParam ? { after: pageParam } : {}) },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_after,
  });
}

/** A governance rule as listed (the OpenAPI document's type). */
export type GovernanceRule = components['schemas']['GovernanceRule'];

/** The governance rules, a page at a time. */
export function useGovernanceRulePages() {
  const api = useApi();
  return useKeysetPages<GovernanceRule>(['governance', 'rules'], async (beforeId) =>
    keysetPage(await api.GET('/~/governance/rules', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } })),
  );
}

/** Cohorts checked per profile: one count each, so a profile page asks about this many at most. */
export const MAX_COHORTS_CHECKED = 50;

/** The cohorts (of the profile's kind) whose criteria select this user or company now. */
export function useProfileCohorts(type: CohortType, profileId: string) {
  const api = useApi();
  const cohorts = useCohorts();
  return useQuery({
    queryKey: ['cohorts', 'of-profile', type, profileId, cohorts.data?.map((c) => c._id)],
    enabled: cohorts.data !== undefined,
    queryFn: async () => {
      const candidates = (cohorts.data ?? []).filter((cohort) => cohort.cohort_type === type).slice(0, MAX_COHORTS_CHECKED);
      const matches = await Promise.all(
        candidates.map(async (cohort) => {
          const result = await api.GET('/~/cohorts/{cohortId}/members', {
            params: { path: { cohortId: cohort._id }, query: { take: 1, member_id: profileId } },
          });
          return dataOf(result).total > 0 ? cohort : undefined;
        }),
      );
      return matches.filter((cohort): cohort is Cohort => cohort !== undefined);
    },
  });
}
