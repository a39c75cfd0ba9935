/** A cohort's `criteria` (a search-DSL query, or a search body with `query`) and the text a user edits it as. */
export type CohortType = 'user' | 'company';

export const PROFILE_INDEX: Record<CohortType, 'users' | 'companies'> = { user: 'users', company: 'companies' };

export { queryFromText as criteriaFromText, textOfQuery as textOfCriteria } from '../../../lib/query-text';
