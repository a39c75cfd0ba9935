import { useQuery } from '@tanstack/react-query';
import { dataOf } from './api-client';
import { useApi } from './api-context';

/**
 * The app's cohort names by id, for pages of other features that name cohorts (an email
 * template's audience): people read names, not ids. One request of the newest 1,000.
 */
export function useCohortNames() {
  const api = useApi();
  return useQuery({
    queryKey: ['cohorts', 'names'],
    queryFn: async () => {
      const cohorts = dataOf(await api.GET('/~/cohorts', { params: { query: { take: 1000 } } }));
      return new Map(cohorts.map((cohort) => [cohort._id, cohort.cohort_name]));
    },
  });
}

/** The app's cohorts to choose from (an email template's audience): id, name and kind. */
export function useCohortChoices() {
  const api = useApi();
  return useQuery({
    queryKey: ['cohorts', 'choices'],
    queryFn: async () =>
      dataOf(await api.GET('/~/cohorts', { params: { query: { take: 1000 } } })).map((cohort) => ({
        id: cohort._id,
        name: cohort.cohort_name,
        type: cohort.cohort_type,
      })),
  });
}
