/** A cohort's `criteria` (a search-DSL query, or a search body with `query`) and the text a user edits it as. */
export type CohortType = 'user' | 'company';

export const PROFILE_INDEX: Record<CohortType, 'users' | 'companies'> = { user: 'users', company: 'companies' };

/**
 * Criteria from what the editor holds: JSON (a query or a body) when it starts with `{`, otherwise
 * query-string terms (`metadata.plan:pro AND company_id.raw:acme`). Throws a SyntaxError naming the problem.
 */
export function criteriaFromText(text: string): Record<string, unknown> {
  const typed = text.trim();
  if (typed === '') return { match_all: {} };
  if (!typed.startsWith('{')) return { query_string: { query: typed } };
  const parsed = JSON.parse(typed) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('criteria must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** The editor's text for stored criteria: the query-string text back when it was one, else pretty JSON. */
export function textOfCriteria(criteria: Record<string, unknown>): string {
  const keys = Object.keys(criteria);
  const queryString = criteria['query_string'] as { query?: unknown } | undefined;
  if (keys.length === 1 && queryString && Object.keys(queryString).length === 1 && typeof queryString.query === 'string') return queryString.query;
  if (keys.length === 1 && keys[0] === 'match_all') return '';
  return JSON.stringify(criteria, null, 2);
}
